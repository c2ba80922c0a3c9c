"""Report links: a view link of kind `report` names the report file it opens.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("view_links", sa.Column("file_id", sa.String(36)))
    op.create_index("ix_view_links_file_id", "view_links", ["file_id"])


def downgrade() -> None:
    op.drop_index("ix_view_links_file_id", "view_links")
    with op.batch_alter_table("view_links") as batch:
        batch.drop_column("file_id")
