"""Live and static view links.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from maproom.storage.models import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "view_links",
        sa.Column("id", sa.String(36)),
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("allowed_origins", JSON),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime()),
        sa.PrimaryKeyConstraint("id", name="pk_view_links"),
        sa.UniqueConstraint("token", name="uq_view_links_token"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name="fk_view_links_project_id_projects",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_view_links_project_id", "view_links", ["project_id"])


def downgrade() -> None:
    op.drop_table("view_links")
