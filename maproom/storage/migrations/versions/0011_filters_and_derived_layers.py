"""Layers: how many features a style's filter keeps, and what a derived layer came from.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

from maproom.storage.models import JSONType

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("layers", sa.Column("filtered_count", sa.BigInteger()))
    op.add_column("layers", sa.Column("derived_from", JSONType))


def downgrade() -> None:
    op.drop_column("layers", "derived_from")
    op.drop_column("layers", "filtered_count")
