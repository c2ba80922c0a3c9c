"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

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
