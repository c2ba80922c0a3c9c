"""The workers table: running processes on a database without a shared Redis.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

from maproom.storage.models import UTCDateTime

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "workers",
        sa.Column("id", sa.String(36)),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("seen_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_workers"),
    )


def downgrade() -> None:
    op.drop_table("workers")
