"""Run the Alembic migrations programmatically (on start, and from the CLI)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from maproom.storage.db import Database

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    """An Alembic config pointing at the packaged migration scripts."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(database: Database) -> None:
    """Bring the schema to the newest revision; safe to call from several processes at once."""
    cfg = alembic_config()
    with database.schema_change() as conn:
        if not database.is_sqlite:
            # Serialise concurrent starters (several workers, several hosts) on one lock.
            conn.execute(text("SELECT pg_advisory_xact_lock(7242019)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
