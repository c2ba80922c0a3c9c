"""Layer ids per project, and field statistics.

A layer id is unique within its project, not across projects (api-decisions.md): the primary key
of `layers` becomes `(project_id, id)`. Every existing row keeps its id and its project. New
columns `fields` and `stats_key` hold a layer's field statistics (filled for existing GeoJSON
layers when the service starts: `maproom.domain.layers.profile_missing`).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("layers", recreate="auto") as batch:
        batch.drop_constraint("pk_layers", type_="primary")
        batch.create_primary_key("pk_layers", ["project_id", "id"])
        batch.add_column(sa.Column("fields", JSON))
        batch.add_column(sa.Column("stats_key", sa.String(300)))


def downgrade() -> None:
    with op.batch_alter_table("layers", recreate="auto") as batch:
        batch.drop_column("stats_key")
        batch.drop_column("fields")
        batch.drop_constraint("pk_layers", type_="primary")
        batch.create_primary_key("pk_layers", ["id"])
