"""The `maproom` commands that talk to a running service over HTTP, through `maproom.client`.

`projects list|create|show|delete`, `upload`, `layers`, `style`, `actions`, `chat`, `live-url`,
`export`, `style-json`, `watch` and `mcp`. Each takes `--url` and `--key` (default
`MAPROOM_URL`, else `http://127.0.0.1:8000`, and `MAPROOM_KEY`). `--json` prints the API's
JSON answer on stdout (lists: every page's items in one `{"data", "meta"}`); otherwise a human
summary. A refusal
goes to stderr as `maproom: CODE: message` with exit status 1 (2 for a bad command line).

The admin commands (`serve`, `keys`) work on the database directly and never through this.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn
from rich.prompt import Prompt
from rich.table import Table

from maproom.client import ApiError, Client, ServiceUnreachable
from maproom.client.events import ChatEvent

Url = Annotated[
    str | None,
    typer.Option("--url", help="The service (default: MAPROOM_URL, else http://127.0.0.1:8000)"),
]
Key = Annotated[str | None, typer.Option("--key", help="An API key (default: MAPROOM_KEY)")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the API's JSON answer")]


class Given:
    """`--url`, `--key` and `--json` given before the command (`maproom --json layers ID`);
    the same options after it win, and the environment comes last."""

    url: str | None = None
    key: str | None = None
    json: bool = False


def _wants_json(as_json: bool) -> bool:
    return as_json or Given.json


ProjectId = Annotated[str, typer.Argument(help="The project's id")]
Source = Annotated[str, typer.Argument(help="A JSON file, or - for stdin")]

projects_app = typer.Typer(help="List, create, show and delete projects.", no_args_is_help=True)
out = Console(soft_wrap=True)
if not out.is_terminal:  # a pipe or a file: whole lines, never squeezed to 80 columns
    out.width = 200
err = Console(stderr=True, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the client commands to the `maproom` command."""
    app.add_typer(projects_app, name="projects")
    for command in (upload, layers, style, actions, chat, watch, mcp):
        app.command()(command)
    app.command("live-url")(live_url)
    app.command("export")(export)
    app.command("style-json")(style_json)


@contextlib.contextmanager
def _client(url: str | None, key: str | None) -> Iterator[Client]:
    """A client; a refusal or an unreachable service ends the command with its message."""
    try:
        with Client(url or Given.url, key or Given.key) as client:
            yield client
    except ApiError as exc:
        err.print(f"maproom: {exc.code}: {exc.message}", markup=False, highlight=False)
        if exc.details:
            err.print(json.dumps(exc.details, indent=2), markup=False, highlight=False)
        raise typer.Exit(1) from None
    except ServiceUnreachable as exc:
        err.print(f"maproom: cannot reach the service: {exc}", markup=False, highlight=False)
        raise typer.Exit(1) from None


def _print_json(value: Any) -> None:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def _listing(items: list[Any]) -> dict[str, Any]:
    return {"data": [item.model_dump(mode="json") for item in items], "meta": {"count": len(items)}}


def _read_json(source: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        return json.loads(text)
    except OSError as exc:
        raise typer.BadParameter(f"cannot read {source}: {exc.strerror}") from None
    except ValueError as exc:
        raise typer.BadParameter(f"{source} is not JSON: {exc}") from None


def _table(*columns: str) -> Table:
    """A table whose first column, an id, is never shortened."""
    table = Table(box=None, header_style="bold")
    table.add_column(columns[0], no_wrap=True, min_width=36)
    for column in columns[1:]:
        table.add_column(column)
    return table


@projects_app.command("list")
def projects_list(url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """Every project, newest change first."""
    with _client(url, key) as mr:
        found = list(mr.projects())
    if _wants_json(as_json):
        return _print_json(_listing(found))
    if not found:
        return _none("No projects yet: make one with `maproom projects create`.")
    table = _table("id", "title", "layers", "updated")
    for p in found:
        table.add_row(p.id, p.title, str(p.layerCount), p.updatedAt)
    out.print(table)
    return None


@projects_app.command("create")
def projects_create(
    title: Annotated[str | None, typer.Option(help="The title (default: Untitled map)")] = None,
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Create a project; prints its id."""
    with _client(url, key) as mr:
        project = mr.create_project(title=title)
    if _wants_json(as_json):
        return _print_json(project)
    out.print(project.id, markup=False, highlight=False)


@projects_app.command("show")
def projects_show(
    project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False
) -> None:
    """A project: its title, view and layers."""
    with _client(url, key) as mr:
        found = mr.project(project)
    if _wants_json(as_json):
        return _print_json(found)
    state = found.mapState
    out.print(f"[bold]{found.title}[/bold]  ({found.id})", highlight=False)
    out.print(f"center {list(state.center)}, zoom {state.zoom}, basemap {state.basemap.style}")
    _print_layers(found.layers)


@projects_app.command("delete")
def projects_delete(
    project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False
) -> None:
    """Delete a project with its layers, files, reports and view links."""
    with _client(url, key) as mr:
        mr.delete_project(project)
    if _wants_json(as_json):
        return _print_json({"ok": True})
    err.print(f"deleted {project}", highlight=False)


def upload(
    project: ProjectId,
    file: Annotated[
        Path, typer.Argument(help="GeoJSON, CSV, Excel, GeoTIFF, ...", exists=True, dir_okay=False)
    ],
    name: Annotated[str | None, typer.Option(help="Name of the layer made from it")] = None,
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Upload a file (streamed, with a progress bar on a terminal); it becomes a layer."""
    with _progress(file.stat().st_size) as advance, _client(url, key) as mr:
        done = mr.upload(project, file, name=name, progress=advance)
    if _wants_json(as_json):
        return _print_json(done)
    out.print(f"file {done.id} ({done.fileSize} bytes)", highlight=False)
    if done.layer is not None:
        out.print(f"layer {done.layer.layer_id}: {done.layer.name}", markup=False, highlight=False)


@contextlib.contextmanager
def _progress(total: int | None) -> Iterator[Callable[[int, int | None], None]]:
    """A progress bar on stderr while the block runs (on a terminal only); yields what to
    call with (bytes so far, total or None)."""
    columns = (BarColumn(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("transfer", total=total)

        def advance(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def export(
    project: ProjectId,
    layer: Annotated[str, typer.Argument(help="The layer's id")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The file to write", dir_okay=False)
    ],
    format: Annotated[
        str, typer.Option("--format", "-f", help="geojson, gpkg, fgb, csv, parquet; tif (rasters)")
    ] = "geojson",
    filter: Annotated[str | None, typer.Option(help="A filter as JSON (docs/analysis.md)")] = None,
    url: Url = None,
    key: Key = None,
) -> None:
    """Export a layer's data to a file (streamed, with a progress bar on a terminal)."""
    where = _filter(filter)
    partial = output.with_name(f".{output.name}.partial")
    try:
        with _progress(None) as advance, _client(url, key) as mr, partial.open("wb") as to:
            written = mr.export(project, layer, to, format=format, filter=where, progress=advance)
        partial.replace(output)
    finally:
        partial.unlink(missing_ok=True)
    err.print(f"wrote {output} ({written} bytes)", markup=False, highlight=False)


def _filter(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        err.print(f"maproom: --filter is not valid JSON: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None


def style_json(
    project: ProjectId,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write it to this file, not stdout")
    ] = None,
    url: Url = None,
    key: Key = None,
) -> None:
    """The project as a MapLibre style (JSON) that any MapLibre client draws."""
    with _client(url, key) as mr:
        style = mr.style(project)
    text = json.dumps(style, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")


def layers(project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """The project's layers, top first."""
    with _client(url, key) as mr:
        found = mr.layers(project)
    if _wants_json(as_json):
        return _print_json(_listing(found))
    _print_layers(found)


def _none(line: str) -> None:
    """What a listing prints when it has nothing: one clear line, not an empty table."""
    out.print(line, markup=False, highlight=False)


def _print_layers(found: list[Any]) -> None:
    if not found:
        return _none("No layers yet: upload a file with `maproom upload`.")
    table = _table("layer_id", "name", "type", "geometry", "features", "visible")
    for layer in found:
        count = "" if layer.feature_count is None else str(layer.feature_count)
        table.add_row(layer.layer_id, layer.name, layer.layer_type, layer.geometry_type or "",
                      count, "yes" if layer.visible else "no")  # fmt: skip
    out.print(table)
    return None


def style(
    project: ProjectId,
    layer: Annotated[str, typer.Argument(help="The layer's id")],
    source: Source,
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Merge a style (a JSON file, or - for stdin) into a layer's; prints the whole style."""
    wanted = _read_json(source)
    with _client(url, key) as mr:
        merged = mr.style_layer(project, layer, wanted)
    _print_json(merged) if _wants_json(as_json) else out.print_json(data=merged)


def actions(
    project: ProjectId, source: Source, url: Url = None, key: Key = None, as_json: AsJson = False
) -> None:
    """Dispatch map actions from a JSON file (or - for stdin): a list of actions, or
    `{"actions": [...]}`. Applied in order, all or nothing."""
    given = _read_json(source)
    batch = given.get("actions") if isinstance(given, dict) else given
    if not isinstance(batch, list):
        raise typer.BadParameter('give a list of actions, or {"actions": [...]}')
    with _client(url, key) as mr:
        done = mr.dispatch(project, batch)
    if _wants_json(as_json):
        return _print_json(done)
    out.print(f"{done.dispatched} action(s) applied", highlight=False)


def chat(
    project: ProjectId,
    message: Annotated[str, typer.Argument(help="What to do with the map")],
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Talk to the project's map agent: its reply streams as it comes; when it asks a
    question, a terminal prompts for the answer (elsewhere the question is printed)."""
    with _client(url, key) as mr:
        events = mr.chat_stream(project, message)
        while True:
            answer = _follow(events, _wants_json(as_json))
            question = answer.get("question")
            if question is None or not sys.stdin.isatty():
                break
            reply = Prompt.ask(_prompt(question), console=err)
            events = mr.answer_stream(project, question["id"], reply)
    if _wants_json(as_json):
        _print_json(answer)


def _follow(events: Iterator[ChatEvent], quiet: bool) -> dict[str, Any]:
    """Show one streamed turn; its final answer."""
    for event in events:
        if event.type == "token" and not quiet:
            out.print(event.data["text"], end="", markup=False, highlight=False)
        elif event.type == "action" and not quiet:
            err.print(f"\n  → {event.data.get('type')}", style="dim", highlight=False)
        elif event.type == "error":
            error = event.data["error"]
            raise ApiError(502, error["code"], error["message"], error.get("details"))
        elif event.type == "done":
            if not quiet:
                out.print()
                if event.data.get("question") and not sys.stdin.isatty():
                    out.print(_prompt(event.data["question"]), markup=False, highlight=False)
            return dict(event.data)
    raise ServiceUnreachable("the chat stream ended before its answer")


def _prompt(question: dict[str, Any]) -> str:
    options = question.get("options") or []
    return str(question["text"]) + (f" [{' / '.join(options)}]" if options else "")


def live_url(project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """A new live view link of the project: a page that follows every change."""
    with _client(url, key) as mr:
        link = mr.live_view_url(project)
    if _wants_json(as_json):
        return _print_json({"liveViewUrl": link})
    out.print(link, markup=False, highlight=False)


def watch(project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """Print the project's live events as they happen (one line each; JSON lines with
    --json), resuming after a dropped connection without losing any. Ctrl-C ends it."""
    with _client(url, key) as mr, contextlib.suppress(KeyboardInterrupt):
        for event in mr.events(project):
            if _wants_json(as_json):
                sys.stdout.write(json.dumps(event.model_dump(mode="json")) + "\n")
            else:
                sys.stdout.write(f"{event.id or '-'} {event.type} {json.dumps(event.data)[:200]}\n")
            sys.stdout.flush()


def mcp(url: Url = None, key: Key = None) -> None:
    """Serve the Model Context Protocol on stdio for an assistant on this machine, talking
    to the service with this key (it can also upload this machine's files)."""
    from maproom.mcp.stdio import serve

    serve(url, key)
