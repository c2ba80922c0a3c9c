"""The `maproom` client commands for a project's reports and view links: `reports list|save`,
`view-links list|create|revoke` (docs/clients.md). Same options and output rules as the other
client commands (`maproom.client.cli`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from maproom.client.cli import (
    AsJson,
    Key,
    ProjectId,
    Url,
    _client,
    _listing,
    _none,
    _print_json,
    _table,
    _wants_json,
    out,
)
from maproom.client.core import ViewLinkOptions

reports_app = typer.Typer(help="List and save a project's HTML reports.", no_args_is_help=True)
links_app = typer.Typer(help="List, create and revoke a project's view links.",
                        no_args_is_help=True)  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add the report and view-link commands to the `maproom` command."""
    app.add_typer(reports_app, name="reports")
    app.add_typer(links_app, name="view-links")


@reports_app.command("list")
def reports_list(
    project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False
) -> None:
    """The project's saved reports: each one's link, which opens without a key."""
    with _client(url, key) as mr:
        found = [link for link in mr.view_links(project) if link.kind == "report"]
    if _wants_json(as_json):
        return _print_json(_listing(found))
    if not found:
        return _none("No reports yet: save one with `maproom reports save`.")
    table = _table("id", "link", "saved")
    for link in found:
        table.add_row(link.id, link.url, link.createdAt)
    out.print(table)
    return None


@reports_app.command("save")
def reports_save(
    project: ProjectId,
    file: Annotated[Path, typer.Argument(help="An HTML file", exists=True, dir_okay=False)],
    title: Annotated[str | None, typer.Option(help="The title (default: the file's name)")] = None,
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Save an HTML file as a report of the project; prints its link."""
    html = file.read_text(encoding="utf-8")
    with _client(url, key) as mr:
        saved = mr.save_report(project, title or file.stem, html)
    if _wants_json(as_json):
        return _print_json(saved)
    out.print(saved.url, markup=False, highlight=False)
    return None


@links_app.command("list")
def links_list(
    project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False
) -> None:
    """The project's view links: live pages, static pages and report links."""
    with _client(url, key) as mr:
        found = mr.view_links(project)
    if _wants_json(as_json):
        return _print_json(_listing(found))
    if not found:
        return _none("No view links yet: make one with `maproom view-links create`.")
    table = _table("id", "kind", "link", "created", "expires")
    for link in found:
        table.add_row(link.id, link.kind, link.url, link.createdAt, link.expiresAt or "never")
    out.print(table)
    return None


@links_app.command("create")
def links_create(
    project: ProjectId,
    static: Annotated[bool, typer.Option("--static", help="A static page, not a live one")] = False,
    expires_in: Annotated[
        int | None, typer.Option(min=1, help="Seconds until the link stops working")
    ] = None,
    origin: Annotated[
        list[str] | None, typer.Option(help="A site that may frame the page (repeatable)")
    ] = None,
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """A new view link of the project (live unless --static); prints it."""
    options: ViewLinkOptions = {}
    if expires_in is not None:
        options["expires_in"] = expires_in
    if origin:
        options["allowed_origins"] = origin
    with _client(url, key) as mr:
        made = (mr.static_view_url if static else mr.live_view_url)(project, **options)
    if _wants_json(as_json):
        return _print_json({"staticViewUrl" if static else "liveViewUrl": made})
    out.print(made, markup=False, highlight=False)
    return None


@links_app.command("revoke")
def links_revoke(
    project: ProjectId,
    link: Annotated[str, typer.Argument(help="The link's id (from `maproom view-links list`)")],
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Revoke a view link: its page, stream and data answer 404 from now on."""
    with _client(url, key) as mr:
        mr.revoke_view_link(project, link)
    if _wants_json(as_json):
        return _print_json({"ok": True})
    out.print(f"revoked {link}", markup=False, highlight=False)
    return None
