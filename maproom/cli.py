"""The `maproom` command: the admin commands `serve`, `keys create|list|revoke`, `--version`,
which work on the database, and the client commands (`maproom.client.cli`), which talk HTTP.

Every command reads the same settings as the service (environment, `.env`), and takes
`--data-dir` to point at another data folder than `MAPROOM_DATA_DIR`. Commands that write say
on stderr which database they wrote to, so a key made against the wrong folder is noticed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from maproom import __version__
from maproom.client import cli as client_cli
from maproom.client import cli_history, cli_links
from maproom.errors import MaproomError

if TYPE_CHECKING:
    from maproom.settings import Settings
    from maproom.storage.db import Database

# The server's modules (settings, database, uvicorn) are imported by the commands that use
# them, so that `maproom --help` and the client commands start in a fraction of a second.

SHUTDOWN_GRACE_SECONDS = 5

app = typer.Typer(help="maproom: a self-hostable map-project service.", no_args_is_help=True)
keys_app = typer.Typer(help="Manage API keys.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")

DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="The data folder (default: MAPROOM_DATA_DIR, else ./.maproom)",
        file_okay=False,
    ),
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"maproom {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version"),
    ] = False,
    url: client_cli.Url = None,
    key: client_cli.Key = None,
    as_json: client_cli.AsJson = False,
) -> None:
    """maproom: a self-hostable map-project service. `--url`, `--key` and `--json` may come
    before the command or after it."""
    client_cli.Given.url, client_cli.Given.key, client_cli.Given.json = url, key, as_json


def _settings(data_dir: Path | None) -> Settings:
    from pydantic import ValidationError

    from maproom.settings import Settings

    try:
        return Settings(data_dir=data_dir) if data_dir is not None else Settings()
    except ValidationError as exc:
        typer.echo(f"maproom: invalid settings:\n{exc}", err=True)
        raise typer.Exit(2) from None


def _migrated(settings: Settings) -> Database:
    from maproom.storage import migrate
    from maproom.storage.db import Database

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.resolved_database_url)
    migrate.upgrade(db)
    return db


def _where(settings: Settings) -> str:
    """The database a command works on, as the operator reads it (no password)."""
    from sqlalchemy.engine import make_url

    return make_url(settings.resolved_database_url).render_as_string(hide_password=True)


def _log_config() -> dict[str, Any]:
    """uvicorn's own logging, plus maproom's messages (what was swept at start, Redis outages,
    ...) at INFO on the same stream."""
    import uvicorn

    return {
        **uvicorn.config.LOGGING_CONFIG,
        "loggers": {
            **uvicorn.config.LOGGING_CONFIG["loggers"],
            "maproom": {"handlers": ["default"], "level": "INFO", "propagate": False},
        },
    }


def _fail(exc: MaproomError) -> typer.Exit:
    typer.echo(f"maproom: {exc.message}", err=True)
    return typer.Exit(2)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes")] = 1,
    access_log: Annotated[bool, typer.Option(help="Log every request")] = True,
    data_dir: DataDir = None,
) -> None:
    """Start the HTTP service (database created and migrated on start)."""
    import uvicorn

    settings = _settings(data_dir)
    if workers > 1 and not settings.redis_url:
        typer.echo(
            "maproom: several workers share their live events, rate limits and key revocations "
            "through Redis: set MAPROOM_REDIS_URL (e.g. redis://127.0.0.1:6379/0), or run one "
            "worker",
            err=True,
        )
        raise typer.Exit(2)
    _migrated(settings).dispose()
    os.environ["MAPROOM_WORKERS"] = str(workers)
    if data_dir is not None:  # the workers read their settings from the environment
        os.environ["MAPROOM_DATA_DIR"] = str(data_dir)
    uvicorn.run(
        "maproom.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=access_log,
        proxy_headers=True,
        log_config=_log_config(),
        # Live streams never end by themselves: give them this long to go, then close them.
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )


@keys_app.command("create")
def create_key(
    account: Annotated[str, typer.Option(help="Account email; created if it does not exist")],
    name: Annotated[str, typer.Option(help="A name to recognise the key by")] = "default",
    scopes: Annotated[str, typer.Option(help="Comma-separated scopes, or * for all")] = "*",
    data_dir: DataDir = None,
) -> None:
    """Create an API key and print it (and nothing else) on stdout."""
    from maproom.domain import keys as keys_domain

    settings = _settings(data_dir)
    db = _migrated(settings)
    wanted = [s.strip() for s in scopes.split(",") if s.strip()]
    try:
        plaintext = keys_domain.bootstrap_key(db, email=account, name=name, scopes=wanted)
    except MaproomError as exc:
        raise _fail(exc) from None
    finally:
        db.dispose()
    typer.echo(f"maproom: key created for {account} in {_where(settings)}", err=True)
    typer.echo(plaintext)


@keys_app.command("list")
def list_keys(
    account: Annotated[str | None, typer.Option(help="Only this account's keys")] = None,
    data_dir: DataDir = None,
) -> None:
    """List the active keys (never their plaintext): id, account, name, scopes, dates."""
    from rich.console import Console
    from rich.table import Table

    from maproom.domain import keys as keys_domain

    settings = _settings(data_dir)
    db = _migrated(settings)
    try:
        found = keys_domain.all_keys(db, email=account)
    finally:
        db.dispose()
    table = Table("id", "account", "name", "prefix", "scopes", "created", "last used")
    for key in found:
        table.add_row(*_cells(key))
    Console(width=200).print(table)
    typer.echo(f"{len(found)} active key(s) in {_where(settings)}", err=True)


def _cells(key: dict[str, Any]) -> list[str]:
    scopes = ",".join(key["scopes"])
    return [key["id"], key["account"], key["name"], key["prefix"], scopes,
            key["createdAt"] or "", key["lastUsedAt"] or "never"]  # fmt: skip


@keys_app.command("revoke")
def revoke_key(
    key_id: Annotated[str, typer.Argument(help="The key's id (from `maproom keys list`)")],
    data_dir: DataDir = None,
) -> None:
    """Revoke a key of any account. Running workers refuse it at once when they share Redis
    (`MAPROOM_REDIS_URL`); otherwise a single-worker server may accept it for up to a minute
    more (its key cache). Every new process refuses it at once."""
    from maproom.adapters import redis
    from maproom.domain import keys as keys_domain

    settings = _settings(data_dir)
    db = _migrated(settings)
    try:
        revoked = keys_domain.revoke_any(db, key_id)
    except MaproomError as exc:
        raise _fail(exc) from None
    finally:
        db.dispose()
    if settings.redis_url:
        space = redis.namespace(settings.resolved_database_url)
        redis.publish_once(settings.redis_url, space, frozenset({f"key-gone:{revoked}"}))
    typer.echo(f"maproom: revoked key {revoked} in {_where(settings)}", err=True)


client_cli.register(app)
cli_history.register(app)
cli_links.register(app)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
