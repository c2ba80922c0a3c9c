"""Messages: what the built-in agent's reply remembers for the next turn ("it", "there").

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

from maproom.storage.models import JSONType

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("messages", sa.Column("memory", JSONType))


def downgrade() -> None:
    op.drop_column("messages", "memory")
