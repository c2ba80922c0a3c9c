"""What the synchronous and the asynchronous clients share, without any I/O.

Every operation is a `Call`: the request to make and how to read its answer into the API's own
Pydantic models (`maproom.api.schemas`, the models the service answers with). `Policy` decides
whether an attempt is retried and how long to wait. `Client` and `AsyncClient` only send.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Generic, TypedDict, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from maproom import __version__
from maproom.api import API_PREFIX
from maproom.api.schemas.actions import ActionsDispatched
from maproom.api.schemas.chat import ChatAnswer
from maproom.api.schemas.common import Ok
from maproom.api.schemas.data import FileList, LayerDetail, LayerList, ReportSaved, UploadResult
from maproom.api.schemas.history import Restored, Share, ShareList, VersionList, VersionView
from maproom.api.schemas.keys import Usage, Verification
from maproom.api.schemas.projects import MapView, ProjectList, ProjectPatched, ProjectRead
from maproom.api.schemas.views import LiveViewUrl, StaticViewUrl, ViewLinkList
from maproom.domain.actions.models import BaseAction
from maproom.retry import backoff_seconds

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

DEFAULT_URL = "http://127.0.0.1:8000"
# Failures after which a request may not have reached the service at all, or reached it and
# was cut off: retried (a POST carries an Idempotency-Key, so a retry never applies it twice).
RETRIED_FAILURES = (httpx.ConnectError, httpx.ConnectTimeout, httpx.ReadError,
                    httpx.RemoteProtocolError, httpx.WriteError, httpx.ReadTimeout,
                    httpx.PoolTimeout)  # fmt: skip
IN_FLIGHT = "still in progress"
# A live stream sends a heartbeat every 15 s: a read that waits much longer is a dead peer.
STREAM_TIMEOUT = httpx.Timeout(30.0, read=45.0)


class Patience(TypedDict, total=False):
    """How long a request may take (seconds, default 30) and how often it is retried
    (default 3)."""

    timeout: float
    max_retries: int


class Options(Patience, total=False):
    """`Client` options: patience, and an `httpx` transport to send through (tests, ASGI)."""

    transport: httpx.BaseTransport


class AsyncOptions(Patience, total=False):
    """`AsyncClient` options."""

    transport: httpx.AsyncBaseTransport


class ProjectChanges(TypedDict, total=False):
    """What `update_project` changes (`if_match`: the ETag the change is based on)."""

    title: str
    map_state: dict[str, Any]
    if_match: str


class LayerChanges(TypedDict, total=False):
    """What `update_layer` changes."""

    name: str
    visible: bool
    if_match: str


class ViewLinkOptions(TypedDict, total=False):
    """Options of a new view link: seconds until it expires, origins that may frame it."""

    expires_in: int
    allowed_origins: list[str]


class ApiError(Exception):
    """The service refused a request: the error envelope's `code`, `message` and `details`,
    with the HTTP `status` and the `request_id` to quote when reporting a bug."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: Any = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.request_id = request_id

    @classmethod
    def of(cls, response: httpx.Response) -> ApiError:
        """The error a response carries (a non-maproom answer, from a proxy say, too)."""
        request_id = response.headers.get("x-request-id")
        try:
            error = response.json()["error"]
            return cls(
                response.status_code,
                str(error["code"]),
                str(error["message"]),
                error.get("details"),
                request_id,
            )
        except (ValueError, KeyError, TypeError):
            text = response.text[:200].strip() or response.reason_phrase
            return cls(response.status_code, f"http_{response.status_code}", text, None, request_id)


class ServiceUnreachable(Exception):
    """The service could not be reached, or kept failing, after every retry."""


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and how to read its answer."""

    method: str
    path: str  # under /api/v1, or absolute
    read: Callable[[Any], T]
    json: Any = None
    params: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    files: Mapping[str, tuple[str, IO[bytes]]] | None = None
    data: Mapping[str, str] | None = None
    retry: bool = True  # False: a body that cannot be sent twice (a stream that cannot seek)


@dataclass(frozen=True)
class Policy:
    """Where, as whom, and how patiently."""

    url: str
    key: str | None
    timeout: float = 30.0
    max_retries: int = 3

    @classmethod
    def of(cls, url: str | None, key: str | None, patience: Patience) -> Policy:
        """Settings from the arguments, else `MAPROOM_URL` and `MAPROOM_KEY`."""
        base = (url or os.environ.get("MAPROOM_URL") or DEFAULT_URL).rstrip("/")
        key = key or os.environ.get("MAPROOM_KEY") or None
        return cls(base, key, patience.get("timeout", 30.0), patience.get("max_retries", 3))

    def client_options(self) -> dict[str, Any]:
        """Options of the `httpx` client a maproom client sends through."""
        headers = {"User-Agent": f"maproom-client/{__version__}"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        return {"base_url": self.url, "headers": headers, "timeout": self.timeout}

    def request(self, http: httpx.Client | httpx.AsyncClient, call: Call[Any]) -> httpx.Request:
        """The request of one attempt (built anew for each, as a body stream is read once)."""
        path = call.path if "://" in call.path else f"{API_PREFIX}{call.path}"
        return http.build_request(
            call.method,
            path,
            json=call.json,
            params=call.params,
            headers=call.headers,
            files=call.files,
            data=call.data,
        )

    def settle(self, call: Call[T], attempt: int, answer: httpx.Response | Exception) -> Any:
        """After attempt `attempt` (1, 2, ...) of `call`, which got `answer` (a response, or
        the failure that kept it from one): the seconds to wait before trying again (a
        float), or the call's result in a 1-tuple; raises `ApiError` or `ServiceUnreachable`
        when it is over."""
        response = answer if isinstance(answer, httpx.Response) else None
        wait = self._wait_after(call, attempt, response)
        if wait >= 0:
            return wait
        if response is None:
            raise ServiceUnreachable(f"{self.url}: {answer}") from answer  # type: ignore[misc]
        return (self.read(call, response),)

    def _wait_after(self, call: Call[Any], attempt: int, answer: httpx.Response | None) -> float:
        """Seconds to wait before trying `call` again after this attempt, which failed to
        connect (`answer` None) or got `answer`; -1 when it must not be retried."""
        if not call.retry or attempt > self.max_retries:
            return -1
        if answer is None:
            return backoff_seconds(None, attempt)
        status = answer.status_code
        in_flight = status == 409 and attempt > 1 and IN_FLIGHT in answer.text
        if status in (429, 502, 503, 504) or in_flight:
            return backoff_seconds(answer.headers, attempt)
        return -1

    @staticmethod
    def read(call: Call[T], response: httpx.Response) -> T:
        """The answer of `call`, or its error raised."""
        if response.status_code >= 400:
            raise ApiError.of(response)
        return call.read(response.json())


def segment(value: str) -> str:
    """A path segment, escaped."""
    return quote(str(value), safe="")


def model(cls: type[M]) -> Callable[[Any], M]:
    """A reader of answers shaped like `cls`."""
    return cls.model_validate


def _plain(value: Any) -> Any:
    return value


def _ok(value: Any) -> bool:
    return Ok.model_validate(value).ok


def _without_none(**values: Any) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}


def _post(path: str, read: Callable[[Any], T], body: Any = None) -> Call[T]:
    """A POST with an Idempotency-Key of its own: the retries of one call are one request."""
    return Call("POST", path, read, json=body, headers={"Idempotency-Key": uuid.uuid4().hex})


def _project(project_id: str) -> str:
    return f"/sessions/{segment(project_id)}"


def _layer(project_id: str, layer_id: str) -> str:
    return f"{_project(project_id)}/layers/{segment(layer_id)}"


def _if_match(version: str | None) -> dict[str, str]:
    return {"If-Match": version} if version else {}


# The operations, in the order of the API reference.


def list_projects(limit: int, cursor: str | None) -> Call[ProjectList]:
    params = _without_none(limit=limit, cursor=cursor)
    return Call("GET", "/sessions", model(ProjectList), params=params)


def create_project(title: str | None, map_state: dict[str, Any] | None) -> Call[ProjectRead]:
    body = _without_none(title=title, mapState=map_state)
    return _post("/sessions", model(ProjectRead), body)


def get_project(project_id: str) -> Call[ProjectRead]:
    return Call("GET", _project(project_id), model(ProjectRead))


def update_project(project_id: str, changes: ProjectChanges) -> Call[ProjectPatched]:
    body = _without_none(title=changes.get("title"), mapState=changes.get("map_state"))
    headers = _if_match(changes.get("if_match"))
    return Call("PATCH", _project(project_id), model(ProjectPatched), json=body, headers=headers)


def delete_project(project_id: str) -> Call[bool]:
    return Call("DELETE", _project(project_id), _ok)


def fork_project(project_id: str, title: str | None) -> Call[ProjectRead]:
    return _post(f"{_project(project_id)}/fork", model(ProjectRead), _without_none(title=title))


def get_map(project_id: str) -> Call[MapView]:
    return Call("GET", f"{_project(project_id)}/map", model(MapView))


def list_layers(project_id: str) -> Call[LayerList]:
    return Call("GET", f"{_project(project_id)}/layers", model(LayerList))


def get_layer(project_id: str, layer_id: str) -> Call[LayerDetail]:
    return Call("GET", _layer(project_id, layer_id), model(LayerDetail))


def update_layer(project_id: str, layer_id: str, changes: LayerChanges) -> Call[LayerDetail]:
    body = _without_none(name=changes.get("name"), visible=changes.get("visible"))
    path, headers = _layer(project_id, layer_id), _if_match(changes.get("if_match"))
    return Call("PATCH", path, model(LayerDetail), json=body, headers=headers)


def style_layer(
    project_id: str, layer_id: str, style: dict[str, Any], if_match: str | None
) -> Call[dict[str, Any]]:
    path = f"{_layer(project_id, layer_id)}/style"
    return Call("PUT", path, _plain, json=style, headers=_if_match(if_match))


def delete_layer(project_id: str, layer_id: str) -> Call[bool]:
    return Call("DELETE", _layer(project_id, layer_id), _ok)


def reorder_layers(project_id: str, order: list[str], if_match: str | None) -> Call[bool]:
    path = f"{_project(project_id)}/layers/order"
    return Call("PUT", path, _ok, json={"layer_ids": order}, headers=_if_match(if_match))


def upload(
    project_id: str, file_name: str, stream: IO[bytes], name: str | None, seekable: bool
) -> Call[UploadResult]:
    # One boundary for every attempt: a retry is then the same body, which the service
    # recognises by its Idempotency-Key instead of storing the file twice.
    boundary = uuid.uuid4().hex
    return Call(
        "POST",
        f"{_project(project_id)}/files",
        model(UploadResult),
        headers={
            "Idempotency-Key": uuid.uuid4().hex,
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
        files={"file": (file_name, stream)},
        data=_without_none(name=name),
        retry=seekable,
    )


def list_files(project_id: str, limit: int, cursor: str | None) -> Call[FileList]:
    params = _without_none(limit=limit, cursor=cursor)
    return Call("GET", f"{_project(project_id)}/files", model(FileList), params=params)


ActionLike = BaseAction | Mapping[str, Any]  # a typed action model, or its JSON as a dict


def dispatch(project_id: str, actions: Sequence[ActionLike]) -> Call[ActionsDispatched]:
    path = f"{_project(project_id)}/map/actions"
    batch = [a.payload() if isinstance(a, BaseAction) else a for a in actions]  # the API checks
    return _post(path, model(ActionsDispatched), {"actions": batch})


def chat(project_id: str, message: str) -> Call[ChatAnswer]:
    return _post(f"{_project(project_id)}/chat", model(ChatAnswer), {"message": message})


def answer(project_id: str, question_id: str, text: str) -> Call[ChatAnswer]:
    body = {"questionId": question_id, "answer": text}
    return _post(f"{_project(project_id)}/ask/respond", model(ChatAnswer), body)


def save_report(project_id: str, title: str, html: str) -> Call[ReportSaved]:
    body = {"title": title, "html": html}
    return _post(f"{_project(project_id)}/reports", model(ReportSaved), body)


def live_view_url(project_id: str, options: ViewLinkOptions) -> Call[str]:
    body = _view_link_body(options)
    return _post(f"{_project(project_id)}/live-view-url", _live_url, body)


def static_view_url(project_id: str, options: ViewLinkOptions) -> Call[str]:
    body = _view_link_body(options)
    return _post(f"{_project(project_id)}/static-view-url", _static_url, body)


def _live_url(value: Any) -> str:
    return LiveViewUrl.model_validate(value).liveViewUrl


def _static_url(value: Any) -> str:
    return StaticViewUrl.model_validate(value).staticViewUrl


def _view_link_body(options: ViewLinkOptions) -> dict[str, Any] | None:
    body = _without_none(
        expiresInSeconds=options.get("expires_in"), allowedOrigins=options.get("allowed_origins")
    )
    return body or None


def view_links(project_id: str) -> Call[ViewLinkList]:
    return Call("GET", f"{_project(project_id)}/view-links", model(ViewLinkList))


def revoke_view_link(project_id: str, link_id: str) -> Call[bool]:
    return Call("DELETE", f"{_project(project_id)}/view-links/{segment(link_id)}", _ok)


def _json(value: Any) -> Any:
    return value


def features(project_id: str, layer_id: str, query: Mapping[str, Any]) -> Call[dict[str, Any]]:
    params = {k: (json.dumps(v) if k == "filter" else v) for k, v in query.items() if v is not None}
    return Call("GET", f"{_layer(project_id, layer_id)}/features", _json, params=params)


def stats(project_id: str, layer_id: str, field: str | None, where: Any) -> Call[dict[str, Any]]:
    params = _without_none(field=field, filter=json.dumps(where) if where is not None else None)
    return Call("GET", f"{_layer(project_id, layer_id)}/stats", _json, params=params)


def history(project_id: str, limit: int, cursor: str | None) -> Call[VersionList]:
    params = _without_none(limit=limit, cursor=cursor)
    return Call("GET", f"{_project(project_id)}/history", model(VersionList), params=params)


def get_version(project_id: str, version: int) -> Call[VersionView]:
    return Call("GET", f"{_project(project_id)}/history/{int(version)}", model(VersionView))


def restore(project_id: str, version: int, if_match: str | None) -> Call[Restored]:
    path = f"{_project(project_id)}/history/{int(version)}/restore"
    return Call("POST", path, model(Restored), headers=_if_match(if_match))


def share(project_id: str, email: str, role: str) -> Call[Share]:
    body = {"email": email, "role": role}
    return _post(f"{_project(project_id)}/shares", model(Share), body)


def shares(project_id: str) -> Call[ShareList]:
    return Call("GET", f"{_project(project_id)}/shares", model(ShareList))


def unshare(project_id: str, share_id: str) -> Call[bool]:
    return Call("DELETE", f"{_project(project_id)}/shares/{segment(share_id)}", _ok)


def verify() -> Call[Verification]:
    return Call("GET", "/verify", model(Verification))


def usage() -> Call[Usage]:
    return Call("GET", "/usage", model(Usage))


def file_content_path(project_id: str, file_id: str) -> str:
    return f"{API_PREFIX}{_project(project_id)}/files/{segment(file_id)}/content"


def export_request(
    project_id: str, layer_id: str, fmt: str, where: Any
) -> tuple[str, dict[str, str]]:
    """The path and query of a layer's export (docs/exports.md)."""
    params = _without_none(format=fmt, filter=json.dumps(where) if where is not None else None)
    return f"{API_PREFIX}{_layer(project_id, layer_id)}/export", params


def length_of(response: httpx.Response) -> int | None:
    """The answer's declared length, if any."""
    declared = response.headers.get("content-length", "")
    return int(declared) if declared.isdigit() else None


def style_json(project_id: str) -> Call[dict[str, Any]]:
    return Call("GET", f"{_project(project_id)}/style.json", _json)


def tilejson(project_id: str, layer_id: str) -> Call[dict[str, Any]]:
    return Call("GET", f"{_layer(project_id, layer_id)}/tilejson", _json)


def style_url(base_url: str, project_id: str) -> str:
    """Where a project's MapLibre style is (read with the key that made the call)."""
    return f"{base_url}{API_PREFIX}{_project(project_id)}/style.json"


def chat_stream(project_id: str, message: str) -> Call[Any]:
    """The streamed form of `chat` (read event by event, not through `read`)."""
    return _streamed(chat(project_id, message))


def answer_stream(project_id: str, question_id: str, text: str) -> Call[Any]:
    """The streamed form of `answer`."""
    return _streamed(answer(project_id, question_id, text))


def _streamed(call: Call[Any]) -> Call[Any]:
    headers = {**call.headers, "Accept": "text/event-stream"}
    return Call(call.method, call.path, _plain, json=call.json, headers=headers)
