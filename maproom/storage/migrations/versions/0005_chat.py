"""Chat: questions on messages, pending questions, one turn at a time per project.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from maproom.storage.models import UTCDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def _owner(name: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["project_id"], ["projects.id"], name=name, ondelete="CASCADE")


def upgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.add_column(sa.Column("question", JSON))
    op.create_table(
        "chat_questions",
        sa.Column("id", sa.String(36)),
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("resume", JSON, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chat_questions"),
        _owner("fk_chat_questions_project_id_projects"),
    )
    op.create_index("ix_chat_questions_project_id_state", "chat_questions", ["project_id", "state"])
    op.create_table(
        "chat_turns",
        sa.Column("project_id", sa.String(36)),
        sa.Column("turn_id", sa.String(36), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("project_id", name="pk_chat_turns"),
        _owner("fk_chat_turns_project_id_projects"),
    )


def downgrade() -> None:
    op.drop_table("chat_turns")
    op.drop_table("chat_questions")
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("question")
