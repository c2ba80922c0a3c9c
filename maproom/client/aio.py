"""The asynchronous Python client (`maproom.client.AsyncClient`): the same operations as
`Client`, awaited. Uploads read the file in chunks on the event loop."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar, Unpack

import anyio
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


class AsyncClient:
    """A maproom service, over HTTP, for asyncio and trio code. See `Client`."""

    def __init__(
        self, url: str | None = None, key: str | None = None, **options: Unpack[core.AsyncOptions]
    ) -> None:
        self.policy = core.Policy.of(url, key, options)
        self._http = httpx.AsyncClient(
            transport=options.get("transport"), **self.policy.client_options()
        )

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def call(self, call: core.Call[T]) -> T:
        """Send `call`, retrying as the policy says, and read its answer."""
        for attempt in itertools.count(1):
            try:
                answer: httpx.Response | Exception = await self._http.send(
                    self.policy.request(self._http, call)
                )
            except core.RETRIED_FAILURES as exc:
                answer = exc
            outcome = self.policy.settle(call, attempt, answer)
            if isinstance(outcome, tuple):
                return outcome[0]  # type: ignore[no-any-return]
            await anyio.sleep(outcome)
        raise AssertionError("unreachable")

    async def _pages(self, page: Callable[[str | None], core.Call[Any]]) -> AsyncIterator[Any]:
        cursor = None
        while True:
            answer = await self.call(page(cursor))
            for item in answer.data:
                yield item
            cursor = answer.meta.nextCursor
            if not cursor:
                return

    async def projects(self, page_size: int = 50) -> AsyncIterator[models.ProjectListItem]:
        async for item in self._pages(lambda cursor: core.list_projects(page_size, cursor)):
            yield item

    async def create_project(
        self, title: str | None = None, map_state: dict[str, Any] | None = None
    ) -> models.ProjectRead:
        return await self.call(core.create_project(title, map_state))

    async def project(self, project_id: str) -> models.ProjectRead:
        return await self.call(core.get_project(project_id))

    async def update_project(
        self, project_id: str, **changes: Unpack[core.ProjectChanges]
    ) -> models.ProjectPatched:
        return await self.call(core.update_project(project_id, changes))

    async def delete_project(self, project_id: str) -> bool:
        return await self.call(core.delete_project(project_id))

    async def fork_project(self, project_id: str, title: str | None = None) -> models.ProjectRead:
        return await self.call(core.fork_project(project_id, title))

    async def map(self, project_id: str) -> models.MapView:
        return await self.call(core.get_map(project_id))

    async def layers(self, project_id: str) -> list[models.LayerItem]:
        return (await self.call(core.list_layers(project_id))).data

    async def layer(self, project_id: str, layer_id: str) -> models.LayerDetail:
        return await self.call(core.get_layer(project_id, layer_id))

    async def update_layer(
        self, project_id: str, layer_id: str, **changes: Unpack[core.LayerChanges]
    ) -> models.LayerDetail:
        return await self.call(core.update_layer(project_id, layer_id, changes))

    async def style_layer(
        self, project_id: str, layer_id: str, style: dict[str, Any], if_match: str | None = None
    ) -> dict[str, Any]:
        return await self.call(core.style_layer(project_id, layer_id, style, if_match))

    async def delete_layer(self, project_id: str, layer_id: str) -> bool:
        return await self.call(core.delete_layer(project_id, layer_id))

    async def reorder_layers(
        self, project_id: str, order: list[str], if_match: str | None = None
    ) -> bool:
        return await self.call(core.reorder_layers(project_id, order, if_match))

    async def upload(
        self,
        project_id: str,
        file: str | Path | IO[bytes],
        *,
        name: str | None = None,
        file_name: str | None = None,
        progress: Progress | None = None,
    ) -> models.UploadResult:
        with opened(file, file_name, progress) as (stream, call_name, seekable):
            return await self.call(core.upload(project_id, call_name, stream, name, seekable))

    async def files(self, project_id: str, page_size: int = 50) -> AsyncIterator[models.FileRecord]:
        async for item in self._pages(lambda c: core.list_files(project_id, page_size, c)):
            yield item

    async def download(self, project_id: str, file_id: str, to: IO[bytes]) -> int:
        return await self._save(core.file_content_path(project_id, file_id), {}, to, None)

    async def export(
        self,
        project_id: str,
        layer_id: str,
        to: IO[bytes],
        format: str = "geojson",
        filter: Any = None,
        progress: Progress | None = None,
    ) -> int:
        """`MaproomClient.export`, awaited."""
        path, params = core.export_request(project_id, layer_id, format, filter)
        return await self._save(path, params, to, progress)

    async def _save(
        self,
        path: str,
        params: dict[str, str],
        to: IO[bytes],
        progress: Progress | None,
    ) -> int:
        written = 0
        async with self._http.stream("GET", path, params=params) as response:
            await self._check(response)
            total = core.length_of(response)
            async for chunk in response.aiter_bytes():
                written += to.write(chunk)
                if progress is not None:
                    progress(written, total)
        return written

    async def style(self, project_id: str) -> dict[str, Any]:
        return await self.call(core.style_json(project_id))

    def style_url(self, project_id: str) -> str:
        return core.style_url(self.policy.url, project_id)

    async def tilejson(self, project_id: str, layer_id: str) -> dict[str, Any]:
        return await self.call(core.tilejson(project_id, layer_id))

    async def dispatch(
        self, project_id: str, actions: Sequence[core.ActionLike]
    ) -> models.ActionsDispatched:
        return await self.call(core.dispatch(project_id, actions))

    async def chat(self, project_id: str, message: str) -> models.ChatAnswer:
        return await self.call(core.chat(project_id, message))

    async def answer(self, project_id: str, question_id: str, answer: str) -> models.ChatAnswer:
        return await self.call(core.answer(project_id, question_id, answer))

    async def chat_stream(self, project_id: str, message: str) -> AsyncIterator[models.ChatEvent]:
        async for event in self._chat_events(core.chat_stream(project_id, message)):
            yield event

    async def answer_stream(
        self, project_id: str, question_id: str, answer: str
    ) -> AsyncIterator[models.ChatEvent]:
        async for event in self._chat_events(core.answer_stream(project_id, question_id, answer)):
            yield event

    async def _chat_events(self, call: core.Call[Any]) -> AsyncIterator[models.ChatEvent]:
        request = self.policy.request(self._http, call)
        response = await self._http.send(request, stream=True)
        try:
            async for sse in self._sse(response):
                yield chat_event(sse)
        finally:
            await response.aclose()

    async def save_report(self, project_id: str, title: str, html: str) -> models.ReportSaved:
        return await self.call(core.save_report(project_id, title, html))

    async def live_view_url(self, project_id: str, **options: Unpack[core.ViewLinkOptions]) -> str:
        return await self.call(core.live_view_url(project_id, options))

    async def static_view_url(
        self, project_id: str, **options: Unpack[core.ViewLinkOptions]
    ) -> str:
        return await self.call(core.static_view_url(project_id, options))

    async def revoke_view_link(self, project_id: str, link_id: str) -> bool:
        return await self.call(core.revoke_view_link(project_id, link_id))

    # Questions about a layer's data

    async def features(self, project_id: str, layer_id: str, **query: Any) -> dict[str, Any]:
        """A page of a layer's features as GeoJSON: `filter` (a dict), `sort`, `order`,
        `limit`, `cursor`, `fields`, `bbox` (docs/analysis.md)."""
        return await self.call(core.features(project_id, layer_id, query))

    async def stats(
        self, project_id: str, layer_id: str, field: str | None = None, filter: Any = None
    ) -> dict[str, Any]:
        """How many features pass `filter`; with a field, its statistics over them."""
        return await self.call(core.stats(project_id, layer_id, field, filter))

    # History and sharing

    async def history(self, project_id: str, limit: int = 50) -> list[models.Version]:
        """The newest `limit` versions of the project, newest first."""
        return (await self.call(core.history(project_id, limit, None))).data

    async def version(self, project_id: str, version: int) -> models.VersionView:
        """The project as it was after `version`."""
        return await self.call(core.get_version(project_id, version))

    async def restore(
        self, project_id: str, version: int, if_match: str | None = None
    ) -> models.Restored:
        """Make the project as it was after `version` (a new version; `missingLayers`)."""
        return await self.call(core.restore(project_id, version, if_match))

    async def undo(self, project_id: str) -> models.ActionsDispatched:
        """Take back the latest change not taken back yet."""
        return await self.call(core.dispatch(project_id, [{"type": "undo"}]))

    async def redo(self, project_id: str) -> models.ActionsDispatched:
        """Re-apply what the last undo took back."""
        return await self.call(core.dispatch(project_id, [{"type": "redo"}]))

    async def share(self, project_id: str, email: str, role: str = "viewer") -> models.Share:
        """Share the project with an email as `viewer` or `editor` (again: a new role)."""
        return await self.call(core.share(project_id, email, role))

    async def shares(self, project_id: str) -> list[models.Share]:
        """The project's shares (the owner), or the caller's own."""
        return (await self.call(core.shares(project_id))).data

    async def unshare(self, project_id: str, share_id: str) -> bool:
        """Revoke a share (the owner), or leave it (the person it names)."""
        return await self.call(core.unshare(project_id, share_id))

    async def view_links(self, project_id: str) -> list[models.ViewLink]:
        return (await self.call(core.view_links(project_id))).data

    async def events(
        self,
        project_id: str | None = None,
        *,
        live_view_url: str | None = None,
        last_event_id: int | None = None,
    ) -> AsyncIterator[models.LiveEvent]:
        state = Resumption(project_id, live_view_url, last_event_id, self.policy.max_retries)
        while True:
            if state.url is None:
                url = await self.live_view_url(state.project_id, expires_in=OWN_LINK_SECONDS)
                state.use(url)
            error: Exception | None = None
            try:
                async with self._http.stream(**state.request()) as response:
                    async for sse in self._sse(response):
                        yield state.seen(sse)
            except httpx.TransportError as exc:
                error = exc
            except core.ApiError as exc:
                state.refused(exc)
            await anyio.sleep(state.wait_after(error))

    @staticmethod
    async def _check(response: httpx.Response) -> None:
        if response.status_code >= 400:
            await response.aread()
            raise core.ApiError.of(response)

    async def _sse(self, response: httpx.Response) -> AsyncIterator[ServerSentEvent]:
        await self._check(response)
        async for sse in EventSource(response).aiter_sse():
            if dispatched(sse):
                yield sse

    async def verify(self) -> models.Verification:
        return await self.call(core.verify())

    async def usage(self) -> models.Usage:
        return await self.call(core.usage())
