"""The Python client against a started service, over real HTTP."""

from __future__ import annotations

import io
import json
import queue
import threading
import time
from pathlib import Path

import pytest

from maproom.client import (
    ApiError,
    AsyncClient,
    Client,
    LiveEvent,
    ServiceUnreachable,
    actions,
)
from tests.clients.conftest import Service
from tests.clients.wire import refusing_front, relay
from tests.serving import free_port

FLY_TO = {"type": "fly_to", "center": [2.35, 48.86], "zoom": 9}


def test_projects_through_their_life_and_pages(service: Service) -> None:
    with Client(service.url, service.key) as mr:
        made = [mr.create_project(title=f"map {i}") for i in range(5)]
        assert [p.title for p in made] == [f"map {i}" for i in range(5)]
        listed = list(mr.projects(page_size=2))  # three pages
        assert {p.id for p in listed} == {p.id for p in made}
        assert len(listed) == 5

        patched = mr.update_project(made[0].id, title="renamed", map_state={"zoom": 4})
        assert (patched.title, patched.mapState.zoom) == ("renamed", 4)
        assert mr.project(made[0].id).title == "renamed"
        view = mr.map(made[0].id)
        assert view.mapState.zoom == 4 and view.layers == []

        assert mr.delete_project(made[1].id) is True
        with pytest.raises(ApiError) as gone:
            mr.project(made[1].id)
        assert (gone.value.status, gone.value.code) == (404, "not_found")
        assert gone.value.request_id


def test_a_refusal_carries_the_envelope(service: Service) -> None:
    with Client(service.url, service.key) as mr:
        project = mr.create_project()
        with pytest.raises(ApiError) as bad:
            mr.dispatch(project.id, [FLY_TO, {"type": "fly_to", "center": [0, 0], "zoom": 99}])
        assert bad.value.status == 400
        assert bad.value.code == "bad_request"
        assert "zoom" in bad.value.message or "zoom" in json.dumps(bad.value.details)
        assert any(d["path"].startswith("actions[1]") for d in bad.value.details)
        assert mr.project(project.id).mapState.zoom == 1.5  # nothing applied
    with Client(service.url, "mr_" + "x" * 43) as stranger, pytest.raises(ApiError) as refused:
        stranger.projects().__next__()
    assert refused.value.code == "unauthorized"


def test_429_is_retried_after_retry_after_with_the_same_idempotency_key(service: Service) -> None:
    with refusing_front(service.url, refusals=2) as (front, seen), Client(front, service.key) as mr:
        started = time.monotonic()
        project = mr.create_project(title="patient")
        waited = time.monotonic() - started
    assert project.title == "patient"
    assert len(seen) == 3 and waited >= 2.0  # two refusals, a second each
    keys = {request["idempotency_key"] for request in seen}
    assert len(keys) == 1 and None not in keys  # one POST, retried as itself
    with Client(service.url, service.key) as mr:
        assert [p.title for p in mr.projects()] == ["patient"]  # made once


def test_429_past_the_retries_raises_rate_limited(service: Service) -> None:
    with (
        refusing_front(service.url, refusals=10) as (front, seen),
        Client(front, service.key, max_retries=1) as mr,
        pytest.raises(ApiError) as limited,
    ):
        mr.verify()
    assert (limited.value.status, limited.value.code) == (429, "rate_limited")
    assert len(seen) == 2


def test_an_unreachable_service_raises_after_the_retries() -> None:
    with (
        Client(f"http://127.0.0.1:{free_port()}", "mr_x", max_retries=1) as mr,
        pytest.raises(ServiceUnreachable),
    ):
        mr.verify()


def test_upload_of_20_mb_reports_progress(service: Service, tmp_path: Path) -> None:
    path = tmp_path / "big.geojson"
    filler = "x" * 100_000
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [i % 180, (i % 170) - 85]},
            "properties": {"n": i, "note": filler},
        }
        for i in range(210)
    ]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    size = path.stat().st_size
    assert size > 20 * 1_048_576
    reports: list[tuple[int, int | None]] = []
    with Client(service.url, service.key, timeout=120) as mr:
        project = mr.create_project()
        uploaded = mr.upload(
            project.id, path, name="Big", progress=lambda s, t: reports.append((s, t))
        )
        assert uploaded.fileSize == size and uploaded.fileName == "big.geojson"
        assert uploaded.layer is not None and uploaded.layer.name == "Big"
        assert uploaded.layer.feature_count == 210
        sent = [s for s, _ in reports]
        assert len(reports) > 100 and sent == sorted(sent)  # in chunks, as it went
        assert reports[-1] == (size, size)

        copy = io.BytesIO()
        assert mr.download(project.id, uploaded.id, copy) == size
        assert copy.getvalue() == path.read_bytes()


def test_upload_from_a_file_object(service: Service) -> None:
    body = b"name,lat,lon\nParis,48.86,2.35\nLyon,45.76,4.84\n"
    with Client(service.url, service.key) as mr:
        project = mr.create_project()
        uploaded = mr.upload(project.id, io.BytesIO(body), file_name="cities.csv")
        assert uploaded.fileType == "csv" and uploaded.layer is not None
        assert uploaded.layer.feature_count == 2
        assert [f.id for f in mr.files(project.id)] == [uploaded.id]
        with pytest.raises(ApiError) as refused:
            mr.upload(project.id, io.BytesIO(b"x"), file_name="tool.exe")
        assert refused.value.code == "unsupported_media_type"


def _reader(events: object, out: queue.Queue[LiveEvent | BaseException]) -> None:
    try:
        for event in events:  # type: ignore[attr-defined]
            out.put(event)
    except BaseException as exc:
        out.put(exc)


def _next_actions(out: queue.Queue[LiveEvent | BaseException], n: int) -> list[LiveEvent]:
    got: list[LiveEvent] = []
    while len(got) < n:
        event = out.get(timeout=15)
        assert not isinstance(event, BaseException), event
        if event.type == "action":
            got.append(event)
    return got


def test_live_stream_resumes_after_a_cut_without_loss_or_repeat(service: Service) -> None:
    with Client(service.url, service.key) as mr:
        project = mr.create_project()
        live_url = mr.live_view_url(project.id)
    with relay(service.url) as r, Client(r.url, service.key) as watcher:
        out: queue.Queue[LiveEvent | BaseException] = queue.Queue()
        stream = watcher.events(live_view_url=live_url.replace(service.url, r.url))
        threading.Thread(target=_reader, args=(stream, out), daemon=True).start()
        first = out.get(timeout=15)
        assert isinstance(first, LiveEvent) and first.type == "snapshot"
        with Client(service.url, service.key) as mr:
            for zoom in (2, 3):
                mr.dispatch(project.id, [{**FLY_TO, "zoom": zoom}])
            before = _next_actions(out, 2)
            r.cut()  # the stream drops; the client reconnects through the relay
            for zoom in (4, 5, 6):
                mr.dispatch(project.id, [{**FLY_TO, "zoom": zoom}])
            after = _next_actions(out, 3)
    zooms = [event.data["zoom"] for event in before + after]
    assert zooms == [2, 3, 4, 5, 6]  # in order, none lost, none twice
    ids = [event.id for event in before + after]
    assert ids == sorted(ids) and len(set(ids)) == 5


def test_live_stream_ends_with_not_found_once_the_project_is_gone(service: Service) -> None:
    with Client(service.url, service.key) as mr:
        project = mr.create_project()
        events = mr.events(project.id)
        assert next(events).type == "snapshot"
        mr.delete_project(project.id)
        with pytest.raises(ApiError) as gone:
            for _ in events:
                pass
        assert gone.value.code == "not_found"


def test_chat_streams_and_answers(service: Service) -> None:
    with Client(service.url, service.key) as mr:
        project = mr.create_project()
        kinds = [event.type for event in mr.chat_stream(project.id, "zoom to France")]
        assert kinds[-1] == "done" and "action" in kinds and "token" in kinds
        answer = mr.chat(project.id, "zoom in")
        assert answer.actions and answer.reply


@pytest.mark.anyio
async def test_the_async_client(service: Service) -> None:
    async with AsyncClient(service.url, service.key) as mr:
        project = await mr.create_project(title="async")
        assert [p.title async for p in mr.projects()] == ["async"]
        events = mr.events(project.id)
        assert (await events.__anext__()).type == "snapshot"
        fly = actions.FlyTo(type="fly_to", center=(2.35, 48.86), zoom=9)  # a typed action
        dispatched = await mr.dispatch(project.id, [fly])
        assert dispatched.dispatched == 1
        moved = await events.__anext__()
        assert moved.type == "action" and moved.data["zoom"] == 9
        await events.aclose()
        with pytest.raises(ApiError) as bad:
            await mr.style_layer(project.id, "nope", {"opacity": 0.5})
        assert bad.value.code == "not_found"


def test_every_other_operation(service: Service) -> None:
    rows = b"name,lat,lon\nParis,48.86,2.35\nLyon,45.76,4.84\n"
    with Client(service.url, service.key) as mr:
        project = mr.create_project(title="all")
        first = mr.upload(project.id, io.BytesIO(rows), file_name="a.csv", name="A").layer
        second = mr.upload(project.id, io.BytesIO(rows), file_name="b.csv", name="B").layer
        assert first is not None and second is not None
        assert [layer.name for layer in mr.layers(project.id)] == ["B", "A"]  # top first
        assert mr.reorder_layers(project.id, [first.layer_id, second.layer_id]) is True
        assert [layer.name for layer in mr.layers(project.id)] == ["A", "B"]
        renamed = mr.update_layer(project.id, first.layer_id, name="Cities", visible=False)
        assert (renamed.name, renamed.visible) == ("Cities", False)
        assert mr.layer(project.id, first.layer_id).name == "Cities"
        assert mr.delete_layer(project.id, second.layer_id) is True
        with pytest.raises(ApiError) as stale:
            mr.update_project(project.id, title="late", if_match='"999"')
        assert stale.value.code == "precondition_failed"

        fork = mr.fork_project(project.id, title="copy")
        assert fork.title == "copy" and [layer.name for layer in fork.layers] == ["Cities"]
        static = mr.static_view_url(project.id, allowed_origins=["https://example.com"])
        links = mr.view_links(project.id)
        assert [(link.kind, link.url) for link in links] == [("static", static)]
        assert links[0].allowedOrigins == ["https://example.com"]
        assert mr.revoke_view_link(project.id, links[0].id) is True
        assert mr.view_links(project.id) == []

        asked = mr.chat(project.id, "fly to Springfield").question
        assert asked is not None
        streamed = list(mr.answer_stream(project.id, asked.id, asked.options[0]))
        assert streamed[-1].type == "done" and streamed[-1].data["actions"]
        again = mr.chat(project.id, "fly to Springfield").question
        assert again is not None
        answered = mr.answer(project.id, again.id, again.options[1])
        assert answered.actions and answered.question is None

        assert mr.verify().account.email == "owner@example.com"
        assert mr.usage().projects == {"used": 2}


def test_a_stream_on_its_own_link_outlives_the_link(service: Service) -> None:
    """Given a project, the client streams through a link of its own; when that link is gone
    (expired, or revoked as here) it makes another and resumes where it was."""
    with Client(service.url, service.key) as mr:
        project = mr.create_project()
        events = mr.events(project.id)
        assert next(events).type == "snapshot"
        [own] = mr.view_links(project.id)
        assert own.kind == "live" and own.expiresAt is not None
        mr.dispatch(project.id, [{**FLY_TO, "zoom": 2}])
        assert next(events).data["zoom"] == 2
        mr.revoke_view_link(project.id, own.id)  # the open stream is closed at once
        mr.dispatch(project.id, [{**FLY_TO, "zoom": 3}])
        resumed = next(events)
        assert (resumed.type, resumed.data["zoom"]) == ("action", 3)
        [renewed] = mr.view_links(project.id)
        assert renewed.id != own.id
        events.close()


def test_export_style_and_tilejson(service: Service) -> None:
    rows = "".join(f"p{i},{i},{40 + i / 100},{-3 - i / 100}\n" for i in range(2000))
    with Client(service.url, service.key) as mr:
        project = mr.create_project().id
        made = mr.upload(project, io.BytesIO(f"name,n,lat,lon\n{rows}".encode()), file_name="p.csv")
        assert made.layer is not None
        layer = made.layer.layer_id
        seen: list[tuple[int, int | None]] = []
        out = io.BytesIO()
        wanted = {"field": "n", "op": "<", "value": 10}
        written = mr.export(project, layer, out, format="geojson", filter=wanted,
                            progress=lambda done, total: seen.append((done, total)))  # fmt: skip
        assert written == len(out.getvalue()) and seen[-1][0] == written
        assert len(json.loads(out.getvalue())["features"]) == 10
        gpkg = io.BytesIO()
        mr.export(project, layer, gpkg, format="gpkg", progress=lambda d, t: seen.append((d, t)))
        assert seen[-1] == (len(gpkg.getvalue()), len(gpkg.getvalue()))  # its size was known
        assert gpkg.getvalue().startswith(b"SQLite format 3")
        style = mr.style(project)
        assert style["version"] == 8 and f"mr-{layer}" in style["sources"]
        assert mr.style_url(project) == f"{service.url}/api/v1/sessions/{project}/style.json"
        assert mr.tilejson(project, layer)["vector_layers"][0]["fields"]["n"] == "Number"
        with pytest.raises(ApiError) as refused:
            mr.export(project, layer, io.BytesIO(), format="kml")
        assert refused.value.code == "bad_request"
