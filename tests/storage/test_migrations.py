"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL, and
keep the data that is already there."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from maproom.settings import Settings
from maproom.storage import migrate
from maproom.storage.db import Database
from maproom.storage.models import metadata


def test_migrated_schema_matches_the_models(settings: Settings) -> None:
    db = Database(settings.resolved_database_url)
    try:
        migrate.upgrade(db)
        migrate.upgrade(db)  # a second run is a no-op
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
    finally:
        db.dispose()


def _to(db: Database, revision: str) -> None:
    config = migrate.alembic_config()
    with db.schema_change() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def test_layer_ids_per_project_keep_existing_layers(settings: Settings) -> None:
    """0004 makes `(project_id, id)` the key of layers; rows made before it stay as they were."""
    db = Database(settings.resolved_database_url)
    now = datetime(2026, 1, 1, tzinfo=UTC).replace(tzinfo=None)
    try:
        _to(db, "0003")
        with db.schema_change() as conn:
            conn.execute(
                text("INSERT INTO accounts VALUES ('a', 'a@x', 'A', 'free', :t)"), {"t": now}
            )
            for project in ("p1", "p2"):
                conn.execute(
                    text("INSERT INTO projects VALUES (:p, 'a', 'T', '{}', NULL, NULL, 1, :t, :t)"),
                    {"p": project, "t": now},
                )
            conn.execute(
                text(
                    "INSERT INTO layers (id, project_id, name, layer_type, visible, streaming, "
                    "source, position, style, options, version, created_at, updated_at) VALUES "
                    "('L', 'p1', 'Old', 'tile', true, false, 'ai', 0, '{}', '{}', 3, :t, :t)"
                ),
                {"t": now},
            )
        migrate.upgrade(db)
        with db.schema_change() as conn:
            row = conn.execute(text("SELECT project_id, name, version, fields FROM layers")).one()
            assert tuple(row) == ("p1", "Old", 3, None)
            # The same id in another project is now a different layer...
            conn.execute(
                text(
                    "INSERT INTO layers (id, project_id, name, layer_type, visible, streaming, "
                    "source, position, style, options, version, created_at, updated_at) VALUES "
                    "('L', 'p2', 'New', 'tile', true, false, 'ai', 0, '{}', '{}', 1, :t, :t)"
                ),
                {"t": now},
            )
        # ... but twice in one project it is still refused.
        with pytest.raises(IntegrityError), db.schema_change() as conn:
            conn.execute(
                text(
                    "INSERT INTO layers (id, project_id, name, layer_type, visible, streaming, "
                    "source, position, style, options, version, created_at, updated_at) VALUES "
                    "('L', 'p1', 'Dup', 'tile', true, false, 'ai', 0, '{}', '{}', 1, :t, :t)"
                ),
                {"t": now},
            )
    finally:
        db.dispose()
