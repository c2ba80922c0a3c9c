"""The synchronous Python client (`maproom.client.Client`)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar, Unpack

import httpx
from httpx_sse import EventSource, ServerSentEvent

from maproom.client import core, models
from maproom.client.events import (
    OWN_LINK_SECONDS,
    Resumption,
    chat_event,
    dispatched,
)
from maproom.client.uploads import Progress, opened

T = TypeVar("T")
Page = TypeVar("Page")


class Client:
    """A maproom service, over HTTP.

    `url` and `key` default to `MAPROOM_URL` (else `http://127.0.0.1:8000`) and `MAPROOM_KEY`.
    Requests refused with 429 (after `Retry-After`), 502, 503 or 504, or cut off on the way,
    are retried up to `max_retries` times with backoff; every POST carries an
    `Idempotency-Key`, so a retried one is applied once. A refusal raises `core.ApiError` with the
    envelope's `code`, `message` and `details`; a service that stays unreachable raises
    `core.ServiceUnreachable`. Use it as a context manager, or call `close()`.
    """

    def __init__(
        self, url: str | None = None, key: str | None = None, **options: Unpack[core.Options]
    ) -> None:
        self.policy = core.Policy.of(url, key, options)
        self._http = httpx.Client(
            transport=options.get("transport"), **self.policy.client_options()
        )

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def call(self, call: core.Call[T]) -> T:
        """Send `call`, retrying as the policy says, and read its answer."""
        for attempt in itertools.count(1):
            try:
                answer: httpx.Response | Exception = self._http.send(
                    self.policy.request(self._http, call)
                )
            except core.RETRIED_FAILURES as exc:
                answer = exc
            outcome = self.policy.settle(call, attempt, answer)
            if isinstance(outcome, tuple):
                return outcome[0]  # type: ignore[no-any-return]
            time.sleep(outcome)
        raise AssertionError("unreachable")

    def _pages(self, page: Callable[[str | None], core.Call[Any]]) -> Iterator[Any]:
        cursor = None
        while True:
            answer = self.call(page(cursor))
            yield from answer.data
            cursor = answer.meta.nextCursor
            if not cursor:
                return

    # Projects

    def projects(self, page_size: int = 50) -> Iterator[models.ProjectListItem]:
        """Every project of the account, newest change first, fetched page by page."""
        return self._pages(lambda cursor: core.list_projects(page_size, cursor))

    def create_project(
        self, title: str | None = None, map_state: dict[str, Any] | None = None
    ) -> models.ProjectRead:
        return self.call(core.create_project(title, map_state))

    def project(self, project_id: str) -> models.ProjectRead:
        return self.call(core.get_project(project_id))

    def update_project(
        self, project_id: str, **changes: Unpack[core.ProjectChanges]
    ) -> models.ProjectPatched:
        return self.call(core.update_project(project_id, changes))

    def delete_project(self, project_id: str) -> bool:
        return self.call(core.delete_project(project_id))

    def fork_project(self, project_id: str, title: str | None = None) -> models.ProjectRead:
        return self.call(core.fork_project(project_id, title))

    def map(self, project_id: str) -> models.MapView:
        """The map state and the layer details, top first: everything to draw the map."""
        return self.call(core.get_map(project_id))

    # Layers and files

    def layers(self, project_id: str) -> list[models.LayerItem]:
        return self.call(core.list_layers(project_id)).data

    def layer(self, project_id: str, layer_id: str) -> models.LayerDetail:
        return self.call(core.get_layer(project_id, layer_id))

    def update_layer(
        self, project_id: str, layer_id: str, **changes: Unpack[core.LayerChanges]
    ) -> models.LayerDetail:
        return self.call(core.update_layer(project_id, layer_id, changes))

    def style_layer(
        self, project_id: str, layer_id: str, style: dict[str, Any], if_match: str | None = None
    ) -> dict[str, Any]:
        """Merge `style` into the layer's style (classification included); the whole style."""
        return self.call(core.style_layer(project_id, layer_id, style, if_match))

    def delete_layer(self, project_id: str, layer_id: str) -> bool:
        return self.call(core.delete_layer(project_id, layer_id))

    def reorder_layers(
        self, project_id: str, order: list[str], if_match: str | None = None
    ) -> bool:
        return self.call(core.reorder_layers(project_id, order, if_match))

    def upload(
        self,
        project_id: str,
        file: str | Path | IO[bytes],
        *,
        name: str | None = None,
        file_name: str | None = None,
        progress: Progress | None = None,
    ) -> models.UploadResult:
        """Upload a file (a path or a binary file object), streamed; `progress(sent, total)`
        is called as the bytes go (`total` None when the size cannot be known)."""
        with opened(file, file_name, progress) as (stream, call_name, seekable):
            return self.call(core.upload(project_id, call_name, stream, name, seekable))

    def files(self, project_id: str, page_size: int = 50) -> Iterator[models.FileRecord]:
        return self._pages(lambda cursor: core.list_files(project_id, page_size, cursor))

    def download(self, project_id: str, file_id: str, to: IO[bytes]) -> int:
        """Write a stored file's bytes to `to`, streamed; the number of bytes."""
        return self._save(core.file_content_path(project_id, file_id), {}, to, None)

    def export(
        self,
        project_id: str,
        layer_id: str,
        to: IO[bytes],
        format: str = "geojson",
        filter: Any = None,
        progress: Progress | None = None,
    ) -> int:
        """Write a layer's export to `to`, streamed: `format` geojson, gpkg, fgb, csv or
        parquet (tif for a raster), the features `filter` (a dict) keeps; `progress(written,
        total)` as the bytes come (`total` None when unknown). The number of bytes."""
        path, params = core.export_request(project_id, layer_id, format, filter)
        return self._save(path, params, to, progress)

    def _save(
        self,
        path: str,
        params: dict[str, str],
        to: IO[bytes],
        progress: Progress | None,
    ) -> int:
        written = 0
        with self._http.stream("GET", path, params=params) as response:
            self._check(response)
            total = core.length_of(response)
            for chunk in response.iter_bytes():
                written += to.write(chunk)
                if progress is not None:
                    progress(written, total)
        return written

    def style(self, project_id: str) -> dict[str, Any]:
        """The project as a MapLibre style (docs/open-formats.md)."""
        return self.call(core.style_json(project_id))

    def style_url(self, project_id: str) -> str:
        """Where the project's MapLibre style is (read with this client's key)."""
        return core.style_url(self.policy.url, project_id)

    def tilejson(self, project_id: str, layer_id: str) -> dict[str, Any]:
        """TileJSON of a layer's tiles."""
        return self.call(core.tilejson(project_id, layer_id))

    # Map actions, chat, reports, views

    def dispatch(
        self, project_id: str, actions: Sequence[core.ActionLike]
    ) -> models.ActionsDispatched:
        """Apply a batch of map actions, in order, all or nothing: typed models
        (`maproom.client.actions.FlyTo(type="fly_to", ...)`) or their JSON as dicts."""
        return self.call(core.dispatch(project_id, actions))

    def chat(self, project_id: str, message: str) -> models.ChatAnswer:
        return self.call(core.chat(project_id, message))

    def answer(self, project_id: str, question_id: str, answer: str) -> models.ChatAnswer:
        """Answer the question a chat turn ended with; the turn goes on."""
        return self.call(core.answer(project_id, question_id, answer))

    def chat_stream(self, project_id: str, message: str) -> Iterator[models.ChatEvent]:
        """A chat turn as it happens: `token`, `action`, `question`, then `done` or `error`."""
        return self._chat_events(core.chat_stream(project_id, message))

    def answer_stream(
        self, project_id: str, question_id: str, answer: str
    ) -> Iterator[models.ChatEvent]:
        return self._chat_events(core.answer_stream(project_id, question_id, answer))

    def _chat_events(self, call: core.Call[Any]) -> Iterator[models.ChatEvent]:
        request = self.policy.request(self._http, call)
        response = self._http.send(request, stream=True)
        try:
            yield from map(chat_event, self._sse(response))
        finally:
            response.close()

    def save_report(self, project_id: str, title: str, html: str) -> models.ReportSaved:
        return self.call(core.save_report(project_id, title, html))

    def live_view_url(self, project_id: str, **options: Unpack[core.ViewLinkOptions]) -> str:
        return self.call(core.live_view_url(project_id, options))

    def static_view_url(self, project_id: str, **options: Unpack[core.ViewLinkOptions]) -> str:
        return self.call(core.static_view_url(project_id, options))

    # Questions about a layer's data

    def features(self, project_id: str, layer_id: str, **query: Any) -> dict[str, Any]:
        """A page of a layer's features as GeoJSON: `filter` (a dict), `sort`, `order`,
        `limit`, `cursor`, `fields`, `bbox` (docs/analysis.md)."""
        return self.call(core.features(project_id, layer_id, query))

    def stats(
        self, project_id: str, layer_id: str, field: str | None = None, filter: Any = None
    ) -> dict[str, Any]:
        """How many features pass `filter`; with a field, its statistics over them."""
        return self.call(core.stats(project_id, layer_id, field, filter))

    # History and sharing

    def history(self, project_id: str, limit: int = 50) -> list[models.Version]:
        """The newest `limit` versions of the project, newest first."""
        return (self.call(core.history(project_id, limit, None))).data

    def version(self, project_id: str, version: int) -> models.VersionView:
        """The project as it was after `version`."""
        return self.call(core.get_version(project_id, version))

    def restore(
        self, project_id: str, version: int, if_match: str | None = None
    ) -> models.Restored:
        """Make the project as it was after `version` (a new version; `missingLayers`)."""
        return self.call(core.restore(project_id, version, if_match))

    def undo(self, project_id: str) -> models.ActionsDispatched:
        """Take back the latest change not taken back yet."""
        return self.call(core.dispatch(project_id, [{"type": "undo"}]))

    def redo(self, project_id: str) -> models.ActionsDispatched:
        """Re-apply what the last undo took back."""
        return self.call(core.dispatch(project_id, [{"type": "redo"}]))

    def share(self, project_id: str, email: str, role: str = "viewer") -> models.Share:
        """Share the project with an email as `viewer` or `editor` (again: a new role)."""
        return self.call(core.share(project_id, email, role))

    def shares(self, project_id: str) -> list[models.Share]:
        """The project's shares (the owner), or the caller's own."""
        return (self.call(core.shares(project_id))).data

    def unshare(self, project_id: str, share_id: str) -> bool:
        """Revoke a share (the owner), or leave it (the person it names)."""
        return self.call(core.unshare(project_id, share_id))

    def view_links(self, project_id: str) -> list[models.ViewLink]:
        return self.call(core.view_links(project_id)).data

    def revoke_view_link(self, project_id: str, link_id: str) -> bool:
        return self.call(core.revoke_view_link(project_id, link_id))

    def events(
        self,
        project_id: str | None = None,
        *,
        live_view_url: str | None = None,
        last_event_id: int | None = None,
    ) -> Iterator[models.LiveEvent]:
        """The project's live stream, resumed with `Last-Event-ID` whenever it drops.

        Give the project (the client makes a live view link for it, which expires an hour
        later and is then replaced) or a `live_view_url`. With `last_event_id`, the stream
        starts with what came after that event instead of a `snapshot`."""
        state = Resumption(project_id, live_view_url, last_event_id, self.policy.max_retries)
        while True:
            if state.url is None:
                state.use(self.live_view_url(state.project_id, expires_in=OWN_LINK_SECONDS))
            error: Exception | None = None
            try:
                with self._http.stream(**state.request()) as response:
                    yield from map(state.seen, self._sse(response))
            except httpx.TransportError as exc:
                error = exc
            except core.ApiError as exc:
                state.refused(exc)
            time.sleep(state.wait_after(error))

    @staticmethod
    def _check(response: httpx.Response) -> None:
        """Raise the refusal of a streamed request."""
        if response.status_code >= 400:
            response.read()
            raise core.ApiError.of(response)

    def _sse(self, response: httpx.Response) -> Iterator[ServerSentEvent]:
        self._check(response)
        return filter(dispatched, EventSource(response).iter_sse())

    # The account

    def verify(self) -> models.Verification:
        return self.call(core.verify())

    def usage(self) -> models.Usage:
        return self.call(core.usage())
