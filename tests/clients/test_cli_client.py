"""The client commands of `maproom`, run as separate processes against a started service; the
interactive chat question answered at its prompt in tmux."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maproom.client import Client
from tests.clients.conftest import Service


def env_for(service: Service, key: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAPROOM_")}
    return env | {"MAPROOM_URL": service.url, "MAPROOM_KEY": key or service.key}


def run(
    service: Service, *args: str, stdin: str | None = None, key: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "maproom.cli", *args],
        env=env_for(service, key),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def ok_json(result: subprocess.CompletedProcess[str]) -> Any:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_projects_commands(service: Service) -> None:
    created = ok_json(run(service, "projects", "create", "--title", "Shell map", "--json"))
    assert created["title"] == "Shell map" and created["mapState"]["zoom"] == 1.5
    plain = run(service, "projects", "create")
    assert plain.returncode == 0 and len(plain.stdout.strip()) == 36  # just the id
    listed = ok_json(run(service, "projects", "list", "--json"))
    assert listed["meta"]["count"] == 2
    assert {p["id"] for p in listed["data"]} == {created["id"], plain.stdout.strip()}
    shown = run(service, "projects", "show", created["id"])
    assert shown.returncode == 0 and "Shell map" in shown.stdout
    assert ok_json(run(service, "projects", "delete", created["id"], "--json")) == {"ok": True}
    gone = run(service, "projects", "show", created["id"])
    assert gone.returncode == 1 and gone.stdout == ""
    assert gone.stderr.startswith("maproom: not_found: ")


def test_upload_layers_style_actions_and_live_url(service: Service, tmp_path: Path) -> None:
    project = ok_json(run(service, "projects", "create", "--json"))["id"]
    places = tmp_path / "places.csv"
    places.write_text("name,pop,lat,lon\nMadrid,3.3,40.42,-3.70\nPorto,0.2,41.15,-8.61\n")
    uploaded = ok_json(run(service, "upload", project, str(places), "--name", "Cities", "--json"))
    assert uploaded["fileName"] == "places.csv" and uploaded["layer"]["name"] == "Cities"
    layer = uploaded["layer"]["layer_id"]
    layers = ok_json(run(service, "layers", project, "--json"))
    assert [item["layer_id"] for item in layers["data"]] == [layer]
    human = run(service, "layers", project)
    assert "Cities" in human.stdout and "Point" in human.stdout

    wanted = {"renderer": {"type": "graduated", "field": "pop", "method": "equal", "classes": 2}}
    styled = ok_json(run(service, "style", project, layer, "-", "--json", stdin=json.dumps(wanted)))
    assert len(styled["renderer"]["ranges"]) == 2  # classified by the service

    style_file = tmp_path / "style.json"
    style_file.write_text(json.dumps({"renderer": {"type": "graduated", "field": "nope"}}))
    refused = run(service, "style", project, layer, str(style_file))
    assert refused.returncode == 1 and refused.stderr.startswith("maproom: bad_request: ")
    assert "renderer.field" in refused.stderr  # the details follow

    batch = {"actions": [{"type": "fly_to", "center": [-3.7, 40.4], "zoom": 5}]}
    done = ok_json(run(service, "actions", project, "-", "--json", stdin=json.dumps(batch)))
    assert done["dispatched"] == 1
    assert run(service, "actions", project, "-", stdin="[{").returncode == 2  # not JSON

    link = run(service, "live-url", project)
    assert link.returncode == 0 and link.stdout.strip().startswith(f"{service.url}/live/")
    with Client(service.url, service.key) as mr:
        assert mr.project(project).mapState.zoom == 5


def test_errors_go_to_stderr_with_a_non_zero_exit(service: Service) -> None:
    refused = run(service, "projects", "list", key="mr_" + "q" * 43)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith("maproom: unauthorized: ")
    nowhere = subprocess.run(
        [sys.executable, "-m", "maproom.cli", "projects", "list", "--url", "http://127.0.0.1:9"],
        env=env_for(service),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert nowhere.returncode == 1 and "cannot reach the service" in nowhere.stderr


def test_chat_without_a_terminal_streams_the_reply(service: Service) -> None:
    project = ok_json(run(service, "projects", "create", "--json"))["id"]
    said = run(service, "chat", project, "zoom to Portugal")
    assert said.returncode == 0, said.stderr
    assert "fly_to" in said.stderr or "fit_bounds" in said.stderr  # the actions, as they apply
    assert said.stdout.strip()  # the reply
    answer = ok_json(run(service, "chat", project, "fly to Springfield", "--json"))
    assert answer["question"]["options"]  # asked back; printed, as there is no one to ask


def test_watch_prints_live_events(service: Service) -> None:
    project = ok_json(run(service, "projects", "create", "--json"))["id"]
    command = [sys.executable, "-m", "maproom.cli", "watch", project, "--json"]
    with subprocess.Popen(
        command, env=env_for(service), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as watcher:
        assert watcher.stdout is not None
        first = json.loads(watcher.stdout.readline())
        assert first["type"] == "snapshot"
        with Client(service.url, service.key) as mr:
            mr.dispatch(project, [{"type": "zoom_in"}])
        moved = json.loads(watcher.stdout.readline())
        assert moved["type"] == "action" and moved["data"]["type"] == "zoom_in"
        assert moved["id"] > first["id"]
        watcher.terminate()


@pytest.fixture
def tmux() -> Iterator[list[str]]:
    if shutil.which("tmux") is None:
        if os.environ.get("MAPROOM_TMUX_TESTS") == "1":  # CI: never skip silently
            pytest.fail("MAPROOM_TMUX_TESTS=1 but tmux is not installed")
        pytest.skip("tmux is not installed (apt-get install -y tmux)")
    base = ["tmux", "-L", f"maproom-test-{uuid.uuid4().hex[:8]}"]
    yield base
    subprocess.run([*base, "kill-server"], capture_output=True, check=False)


def _screen_until(tmux: list[str], wanted: str, timeout: float = 60) -> str:
    """The pane's text once it matches the pattern `wanted` (polled until the deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        screen = subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", "chat"], capture_output=True, text=True, check=True
        ).stdout
        if re.search(wanted, screen):
            return screen
        assert time.monotonic() < deadline, f"never showed {wanted!r}:\n{screen}"
        time.sleep(0.1)


def test_chat_question_answered_at_the_prompt_in_tmux(service: Service, tmux: list[str]) -> None:
    with Client(service.url, service.key) as mr:
        project = mr.create_project().id
        scout = mr.create_project().id
        options = mr.chat(scout, "fly to Springfield").question
    assert options is not None and len(options.options) >= 2
    choice = options.options[1]
    env = [
        f"-e{name}={value}"
        for name, value in env_for(service).items()
        if name.startswith("MAPROOM_")
    ]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "chat", "-x", "200", "-y", "50", *env], check=True
    )
    command = shlex.join(
        [sys.executable, "-m", "maproom.cli", "chat", project, "fly to Springfield"]
    )
    subprocess.run(
        [*tmux, "send-keys", "-t", "chat", f"{command}; echo EXIT=$?", "Enter"], check=True
    )
    _screen_until(tmux, re.escape(options.options[0]))  # the question and its options, at a prompt
    subprocess.run([*tmux, "send-keys", "-t", "chat", choice, "Enter"], check=True)
    screen = _screen_until(tmux, r"EXIT=\d")
    assert "EXIT=0" in screen, screen
    with Client(service.url, service.key) as mr:
        messages = mr.project(project).messages
    assert messages[-1].role == "assistant" and messages[-1].actions  # the turn went on
    assert messages[-2].content == choice


def test_history_undo_restore_and_sharing_commands(service: Service) -> None:
    project = ok_json(run(service, "projects", "create", "--json"))["id"]
    fly = json.dumps([{"type": "fly_to", "center": [10, 20], "zoom": 4}])
    assert run(service, "actions", project, "-", stdin=fly).returncode == 0
    undone = run(service, "undo", project)
    assert undone.returncode == 0 and "Undone" in undone.stdout
    assert run(service, "redo", project).returncode == 0
    versions = ok_json(run(service, "history", project, "--json"))["data"]
    assert [v["kind"] for v in versions] == ["redo", "undo", "change", "create"]
    human = run(service, "history", project)
    assert "Flew to 20.00° N, 10.00° E" in human.stdout and "actions" in human.stdout
    restored = run(service, "restore", project, "1")
    assert restored.returncode == 0 and "Restored version 1" in restored.stdout
    assert run(service, "redo", project).stderr.startswith("maproom: bad_request: ")

    made = ok_json(run(service, "share", project, "friend@example.com", "--role", "editor",
                       "--json"))  # fmt: skip
    listed = run(service, "shares", project)
    assert made["id"] in listed.stdout and "editor" in listed.stdout
    friend = service.make_key(email="friend@example.com")
    assert project in run(service, "projects", "list", key=friend).stdout
    assert run(service, "unshare", project, made["id"], key=friend).returncode == 0  # leaving
    assert "Not shared with anyone" in run(service, "shares", project).stdout
    assert run(service, "projects", "show", project, key=friend).returncode == 1


def test_export_and_style_json(service: Service, tmp_path: Path) -> None:
    import pyogrio

    project = ok_json(run(service, "projects", "create", "--json"))["id"]
    places = tmp_path / "places.csv"
    places.write_text("name,pop,lat,lon\nMadrid,3.3,40.42,-3.70\nPorto,0.2,41.15,-8.61\n")
    layer = ok_json(run(service, "upload", project, str(places), "--json"))["layer"]["layer_id"]
    target = tmp_path / "out" / "places.gpkg"
    target.parent.mkdir()
    done = run(service, "export", project, layer, "--format", "gpkg", "-o", str(target))
    assert done.returncode == 0, done.stderr
    assert f"wrote {target}" in done.stderr
    frame = pyogrio.read_dataframe(target)
    assert sorted(frame["name"]) == ["Madrid", "Porto"]
    big = json.dumps({"field": "pop", "op": ">", "value": 1})
    csv = tmp_path / "out" / "big.csv"
    assert (
        run(
            service, "export", project, layer, "-f", "csv", "--filter", big, "-o", str(csv)
        ).returncode
        == 0
    )
    assert csv.read_text().splitlines()[1].startswith("POINT (-3.7 40.42),Madrid")
    refused = run(service, "export", project, layer, "-f", "shp", "-o", str(tmp_path / "x.shp"))
    assert refused.returncode == 1 and refused.stderr.startswith("maproom: bad_request: format")
    assert sorted(p.name for p in target.parent.iterdir()) == ["big.csv", "places.gpkg"]
    style = ok_json(run(service, "style-json", project))
    assert style["version"] == 8 and any(x["id"] == f"mr-{layer}-circle" for x in style["layers"])


def test_global_options_before_the_command_and_clear_empty_listings(
    service: Service, tmp_path: Path
) -> None:
    project = ok_json(run(service, "--json", "projects", "create"))["id"]  # --json before
    assert ok_json(run(service, "--json", "layers", project)) == {"data": [], "meta": {"count": 0}}
    empty = run(service, "layers", project)
    assert empty.returncode == 0 and empty.stdout.strip().startswith("No layers yet")
    # --key before the command wins over MAPROOM_KEY; the same option after it wins over both.
    wrong = "mr_" + "q" * 43
    listed = run(service, "--key", service.key, "--json", "projects", "list", key=wrong)
    assert listed.returncode == 0, listed.stderr
    after = run(service, "--key", wrong, "projects", "list", "--key", service.key, key=wrong)
    assert after.returncode == 0, after.stderr
    refused = run(service, "--key", wrong, "projects", "list")
    assert refused.returncode == 1 and refused.stderr.startswith("maproom: unauthorized: ")

    assert run(service, "reports", "list", project).stdout.startswith("No reports yet")
    page = tmp_path / "Summary.html"
    page.write_text("<h1>Summary</h1>")
    saved = run(service, "reports", "save", project, str(page))
    assert saved.returncode == 0 and "/r/" in saved.stdout
    reports = ok_json(run(service, "reports", "list", project, "--json"))["data"]
    assert [r["url"] for r in reports] == [saved.stdout.strip()]

    made = run(service, "view-links", "create", project, "--static", "--expires-in", "3600")
    assert made.returncode == 0 and "/embed/" in made.stdout
    links = ok_json(run(service, "--json", "view-links", "list", project))["data"]
    static = next(link for link in links if link["kind"] == "static")
    assert static["url"] == made.stdout.strip() and static["expiresAt"] is not None
    assert run(service, "view-links", "revoke", project, static["id"]).returncode == 0
    left = ok_json(run(service, "--json", "view-links", "list", project))["data"]
    assert [link["kind"] for link in left] == ["report"]
