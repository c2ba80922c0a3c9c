"""What each stored file takes in the blob store (its original and everything derived from it),
for `/usage`. Files stored before this revision are measured by the service at start.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("files") as batch:
        batch.add_column(sa.Column("stored_bytes", sa.BigInteger()))


def downgrade() -> None:
    with op.batch_alter_table("files") as batch:
        batch.drop_column("stored_bytes")
