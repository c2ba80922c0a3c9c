"""Data: files, layers and the per-project event log.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from maproom.storage.models import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def _owner(table: str, column: str, name: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{table}.id"], name=name, ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "files",
        sa.Column("id", sa.String(36)),
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.Column("file_name", sa.String(255), nullable=False),
        sa.Column("file_type", sa.String(16), nullable=False),
        sa.Column("file_size", sa.BigInteger(), nullable=False),
        sa.Column("content_type", sa.String(100), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("blob_key", sa.String(300), nullable=False),
        sa.Column("title", sa.String(200)),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_files"),
        _owner("projects", "project_id", "fk_files_project_id_projects"),
    )
    op.create_index("ix_files_project_id_created_at", "files", ["project_id", "created_at"])
    op.create_table(
        "layers",
        sa.Column("id", sa.String(36)),
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.Column("file_id", sa.String(36)),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("layer_type", sa.String(16), nullable=False),
        sa.Column("geometry_type", sa.String(16)),
        sa.Column("visible", sa.Boolean(), nullable=False),
        sa.Column("feature_count", sa.Integer()),
        sa.Column("streaming", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("style", JSON, nullable=False),
        sa.Column("bbox", JSON),
        sa.Column("data_key", sa.String(300)),
        sa.Column("remote_url", sa.Text()),
        sa.Column("options", JSON, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_layers"),
        _owner("projects", "project_id", "fk_layers_project_id_projects"),
        _owner("files", "file_id", "fk_layers_file_id_files"),
    )
    op.create_index("ix_layers_project_id_position", "layers", ["project_id", "position"])
    op.create_index("ix_layers_file_id", "layers", ["file_id"])
    op.create_table(
        "events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True),
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        _owner("projects", "project_id", "fk_events_project_id_projects"),
    )
    op.create_index("ix_events_project_id_id", "events", ["project_id", "id"])


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("layers")
    op.drop_table("files")
