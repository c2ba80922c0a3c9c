"""Table definitions (SQLAlchemy Core), shared by the repositories and the Alembic migrations."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)  # type: ignore[no-any-return]
        return value.astimezone(UTC)  # type: ignore[no-any-return]

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], Any] | None:
        # SQLite keeps "YYYY-MM-DD HH:MM:SS.ffffff" text; the C parser reads it several
        # times faster than SQLAlchemy's generic regex-based one.
        if dialect.name == "sqlite":
            return _sqlite_utc
        return super().result_processor(dialect, coltype)


def _sqlite_utc(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


JSONType = JSON().with_variant(JSONB(), "postgresql")

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


def _id(name: str = "id") -> Column[str]:
    return Column(name, String(36), primary_key=True)


def _owner(table: str, name: str) -> Column[str]:
    return Column(name, String(36), ForeignKey(f"{table}.id", ondelete="CASCADE"), nullable=False)


accounts = Table(
    "accounts",
    metadata,
    _id(),
    Column("email", String(320), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("plan", String(32), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
)

api_keys = Table(
    "api_keys",
    metadata,
    _id(),
    _owner("accounts", "account_id"),
    Column("name", String(200), nullable=False),
    Column("prefix", String(16), nullable=False, index=True),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("scopes", JSONType, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("last_used_at", UTCDateTime()),
    Column("revoked_at", UTCDateTime()),
    Index(None, "account_id"),
)

projects = Table(
    "projects",
    metadata,
    _id(),
    _owner("accounts", "account_id"),
    Column("title", String(200), nullable=False),
    Column("map_state", JSONType, nullable=False),
    # No foreign key: a fork outlives the project it was copied from.
    Column("forked_from_id", String(36)),
    Column("shared_by", JSONType),
    Column("version", Integer, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Index(None, "account_id", "updated_at", "id"),
)

messages = Table(
    "messages",
    metadata,
    _id(),
    _owner("projects", "project_id"),
    Column("role", String(16), nullable=False),
    Column("content", Text, nullable=False),
    Column("actions", JSONType, nullable=False),
    Column("question", JSONType),  # {"id", "text", "options"} when the assistant asked one
    # What the built-in agent remembers for the next turn (docs/chat.md); never shown.
    Column("memory", JSONType),
    Column("created_at", UTCDateTime(), nullable=False),
    Index(None, "project_id", "created_at"),
)

# A question the chat agent asked, and what it needs to go on once it is answered.
chat_questions = Table(
    "chat_questions",
    metadata,
    _id(),
    _owner("projects", "project_id"),
    Column("text", Text, nullable=False),
    Column("options", JSONType, nullable=False),
    Column("state", String(16), nullable=False),  # "pending", "answered" or "dropped"
    Column("resume", JSONType, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Index(None, "project_id", "state"),
)

# The chat turn running on a project, if any: one at a time, whichever worker runs it.
chat_turns = Table(
    "chat_turns",
    metadata,
    Column(
        "project_id",
        String(36),
        ForeignKey("projects.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("turn_id", String(36), nullable=False),
    Column("started_at", UTCDateTime(), nullable=False),
)

idempotency_records = Table(
    "idempotency_records",
    metadata,
    Column(
        "key_id",
        String(36),
        ForeignKey("api_keys.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("idem_key", String(255), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    Column("completed", Boolean, nullable=False),
    Column("status_code", Integer),
    Column("response_headers", JSONType),
    Column("response_body", LargeBinary),
    Column("created_at", UTCDateTime(), nullable=False, index=True),
)

account_usage = Table(
    "account_usage",
    metadata,
    Column(
        "account_id",
        String(36),
        ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("period", String(7), primary_key=True),
    Column("requests", BigInteger, nullable=False),
)

files = Table(
    "files",
    metadata,
    _id(),
    _owner("projects", "project_id"),
    Column("file_name", String(255), nullable=False),
    Column("file_type", String(16), nullable=False),
    Column("file_size", BigInteger, nullable=False),
    # Bytes in the blob store under the file's prefix: the original and what was derived from
    # it (converted layer, statistics, tile index); NULL until measured (older files).
    Column("stored_bytes", BigInteger),
    Column("content_type", String(100), nullable=False),
    # "upload", "report" or "inline" (GeoJSON given to a map action)
    Column("origin", String(16), nullable=False),
    Column("blob_key", String(300), nullable=False),
    Column("title", String(200)),
    Column("created_at", UTCDateTime(), nullable=False),
    Index(None, "project_id", "created_at"),
)

layers = Table(
    "layers",
    metadata,
    # A layer id is unique within its project only (docs/api-decisions.md): two projects may hold
    # layers with the same id, and they are different layers.
    Column(
        "project_id", String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("id", String(36), primary_key=True),
    # A layer made from a file goes when its file goes.
    Column("file_id", String(36), ForeignKey("files.id", ondelete="CASCADE")),
    Column("name", String(200), nullable=False),
    Column("layer_type", String(16), nullable=False),
    Column("geometry_type", String(16)),
    Column("visible", Boolean, nullable=False),
    Column("feature_count", Integer),
    Column("streaming", Boolean, nullable=False),
    Column("source", String(16), nullable=False),
    # Drawing order: higher is drawn on top (order 0 in the API is the highest position).
    Column("position", Integer, nullable=False),
    Column("style", JSONType, nullable=False),
    Column("bbox", JSONType),
    # The converted data (GeoJSON or COG) in the blob store, or the remote URL of a tile layer.
    Column("data_key", String(300)),
    Column("remote_url", Text),
    Column("options", JSONType, nullable=False),
    # Field statistics (maproom.geo.fields): the detail's `fields`, and the blob that
    # classification reads; null for rasters, remote layers and layers not yet profiled.
    Column("fields", JSONType),
    Column("stats_key", String(300)),
    # With a style filter: how many features it keeps (maproom.domain.filters); else null.
    Column("filtered_count", BigInteger),
    # A layer an analysis made: {"operation", "layerIds", "params"} (maproom.domain.derive).
    Column("derived_from", JSONType),
    Column("version", Integer, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Index(None, "project_id", "position"),
    Index(None, "file_id"),
)

events = Table(
    "events",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    _owner("projects", "project_id"),
    Column("type", String(32), nullable=False),
    Column("payload", JSONType, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Index(None, "project_id", "id"),
)

view_links = Table(
    "view_links",
    metadata,
    _id(),
    _owner("projects", "project_id"),
    Column("kind", String(8), nullable=False),  # "live", "static" or "report"
    # The unguessable part of the page URL (192 random bits). Kept as is, not hashed: the
    # link listing shows each link's URL, and a link grants read-only viewing of one project.
    Column("token", String(64), nullable=False, unique=True),
    Column("allowed_origins", JSONType),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime()),
    # A report link's report (a project file); deleted with the file (`files.remove`).
    Column("file_id", String(36)),
    Index(None, "project_id"),
    Index(None, "file_id"),
)

# Running `maproom serve` processes that share nothing but the database (no MAPROOM_REDIS_URL):
# a second one refuses to start (maproom.domain.workers).
workers = Table(
    "workers",
    metadata,
    _id(),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("seen_at", UTCDateTime(), nullable=False),
)

# A project's history (maproom.domain.history): one row per version that changed something,
# with who made it, what it did, and `before`: what it changed, as it was before (the inverse
# of the change, so its size follows the change, not the project).
versions = Table(
    "versions",
    metadata,
    _owner("projects", "project_id"),
    Column("version", Integer, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("account_email", String(320)),
    Column("key_id", String(36)),
    Column("via", String(16), nullable=False),
    Column("kind", String(16), nullable=False),  # create, change, undo, redo, restore
    Column("target", Integer),  # the version an undo takes back, a redo re-applies, ...
    Column("undone_by", Integer),
    Column("redone_by", Integer),
    Column("summary", Text, nullable=False),
    Column("actions", JSONType, nullable=False),
    Column("before", JSONType, nullable=False),
    PrimaryKeyConstraint("project_id", "version", name="pk_versions"),
    # SQLite: the rows in the primary key's own B-tree (one B-tree to write per version).
    sqlite_with_rowid=False,
)

# The files a version's `before` refers to (a removed layer's data): kept while it is retained.
version_files = Table(
    "version_files",
    metadata,
    _owner("projects", "project_id"),
    Column("version", Integer, nullable=False),
    Column("file_id", String(36), nullable=False),
    PrimaryKeyConstraint("project_id", "version", "file_id", name="pk_version_files"),
    Index(None, "project_id", "file_id"),
)

# Projects shared with other accounts, by email (maproom.domain.shares); a share of an email no
# account has yet applies when one appears.
shares = Table(
    "shares",
    metadata,
    _id(),
    _owner("projects", "project_id"),
    Column("email", String(320), nullable=False),  # lower case
    Column("role", String(8), nullable=False),  # viewer or editor
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("project_id", "email"),
    Index(None, "email"),
)
