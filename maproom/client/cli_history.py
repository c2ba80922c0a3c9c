"""The `maproom` client commands for a project's history and its shares: `history`, `restore`,
`undo`, `redo`, `share`, `shares`, `unshare` (docs/clients.md). Same options and output rules as
the other client commands (`maproom.client.cli`)."""

from __future__ import annotations

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

Version = Annotated[int, typer.Argument(help="A version number (from `maproom history`)")]


def register(app: typer.Typer) -> None:
    """Add the history and sharing commands to the `maproom` command."""
    for command in (history, restore, undo, redo, share, shares, unshare):
        app.command()(command)


def history(
    project: ProjectId,
    limit: Annotated[int, typer.Option(min=1, max=200, help="How many versions")] = 20,
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """The project's versions, newest first: who changed what, and how."""
    with _client(url, key) as mr:
        found = mr.history(project, limit)
    if _wants_json(as_json):
        return _print_json(_listing(found))
    table = _table("version", "when", "who", "via", "summary")
    for v in found:
        table.add_row(
            str(v.version), v.createdAt, v.actor.accountEmail or "", v.actor.via, v.summary
        )
    if not found:
        return _none("No versions kept.")
    out.print(table)
    return None


def restore(
    project: ProjectId, version: Version, url: Url = None, key: Key = None, as_json: AsJson = False
) -> None:
    """Make the project as it was after a version (itself a new version)."""
    with _client(url, key) as mr:
        made = mr.restore(project, version)
    if _wants_json(as_json):
        return _print_json(made)
    out.print(f"Restored version {made.restoredVersion} as version {made.version}.")
    for layer in made.missingLayers:
        out.print(f"Could not bring back {layer.name}: its file was deleted.", markup=False)
    return None


def undo(project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """Take back the latest change not taken back yet."""
    with _client(url, key) as mr:
        done = mr.undo(project)
    if _wants_json(as_json):
        return _print_json(done)
    out.print("Undone.")
    return None


def redo(project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """Re-apply what the last undo took back."""
    with _client(url, key) as mr:
        done = mr.redo(project)
    if _wants_json(as_json):
        return _print_json(done)
    out.print("Redone.")
    return None


def share(
    project: ProjectId,
    email: Annotated[str, typer.Argument(help="Whom to share with")],
    role: Annotated[str, typer.Option(help="viewer or editor")] = "viewer",
    url: Url = None,
    key: Key = None,
    as_json: AsJson = False,
) -> None:
    """Share the project with an email (again: change the role)."""
    if role not in ("viewer", "editor"):
        raise typer.BadParameter("--role is viewer or editor")
    with _client(url, key) as mr:
        made = mr.share(project, email, role)
    if _wants_json(as_json):
        return _print_json(made)
    out.print(f"Shared with {made.email} as {made.role} (share {made.id}).", markup=False)
    return None


def shares(project: ProjectId, url: Url = None, key: Key = None, as_json: AsJson = False) -> None:
    """The project's shares (yours only, on a project shared with you)."""
    with _client(url, key) as mr:
        found = mr.shares(project)
    if _wants_json(as_json):
        return _print_json(_listing(found))
    if not found:
        out.print("Not shared with anyone.")
        return None
    table = _table("id", "email", "role", "since")
    for s in found:
        table.add_row(s.id, s.email, s.role, s.createdAt)
    out.print(table)
    return None


def unshare(
    project: ProjectId,
    share_id: Annotated[str, typer.Argument(help="The share's id (from `maproom shares`)")],
    url: Url = None,
    key: Key = None,
) -> None:
    """Revoke a share, or leave a project shared with you."""
    with _client(url, key) as mr:
        mr.unshare(project, share_id)
    out.print("Revoked.")
