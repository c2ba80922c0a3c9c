"""The `maproom` command: `serve` and `keys create`."""

from __future__ import annotations

import os
from typing import Annotated

import typer
import uvicorn
from pydantic import ValidationError

from maproom.domain import keys as keys_domain
from maproom.errors import MaproomError
from maproom.settings import Settings
from maproom.storage import migrate
from maproom.storage.db import Database

SHUTDOWN_GRACE_SECONDS = 5

app = typer.Typer(help="maproom: a self-hostable map-project service.", no_args_is_help=True)
keys_app = typer.Typer(help="Manage API keys.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")


def _settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        typer.echo(f"maproom: invalid settings:\n{exc}", err=True)
        raise typer.Exit(2) from None


def _migrated(settings: Settings) -> Database:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.resolved_database_url)
    migrate.upgrade(db)
    return db


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes")] = 1,
    access_log: Annotated[bool, typer.Option(help="Log every request")] = True,
) -> None:
    """Start the HTTP service (database created and migrated on start)."""
    settings = _settings()
    _migrated(settings).dispose()
    os.environ["MAPROOM_WORKERS"] = str(workers)
    uvicorn.run(
        "maproom.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=access_log,
        proxy_headers=True,
        # Live streams never end by themselves: give them this long to go, then close them.
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )


@keys_app.command("create")
def create_key(
    account: Annotated[str, typer.Option(help="Account email; created if it does not exist")],
    name: Annotated[str, typer.Option(help="A name to recognise the key by")] = "default",
    scopes: Annotated[str, typer.Option(help="Comma-separated scopes, or * for all")] = "*",
) -> None:
    """Create an API key and print it (and nothing else) on stdout."""
    settings = _settings()
    db = _migrated(settings)
    wanted = [s.strip() for s in scopes.split(",") if s.strip()]
    try:
        plaintext = keys_domain.bootstrap_key(db, email=account, name=name, scopes=wanted)
    except MaproomError as exc:
        typer.echo(f"maproom: {exc.message}", err=True)
        raise typer.Exit(2) from None
    finally:
        db.dispose()
    typer.echo(plaintext)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
