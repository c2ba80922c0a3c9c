"""Tile layers' attributions kept as text with at most http(s) links (`domain/attribution.py`):
attributions stored before that rule are cleaned the same way.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

from maproom.domain.attribution import clean
from maproom.storage.models import layers

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(layers.c.project_id, layers.c.id, layers.c.options).where(
            layers.c.layer_type == "tile"
        )
    ).all()
    for project_id, layer_id, options in rows:
        text = (options or {}).get("attribution")
        if isinstance(text, str) and clean(text) != text:
            conn.execute(
                sa.update(layers)
                .where(layers.c.project_id == project_id, layers.c.id == layer_id)
                .values(options={**options, "attribution": clean(text)})
            )


def downgrade() -> None:
    """Nothing to undo: the cleaned text is what the layer shows."""
