"""Alembic environment: migrations run on a connection handed over by `maproom.storage.migrate`."""

from __future__ import annotations

from alembic import context

from maproom.storage.models import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through maproom.storage.migrate.upgrade()")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
