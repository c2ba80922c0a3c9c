"""History (versions, the files they keep) and shares between accounts.

Existing projects start their history at their current version: a `create` row summarising
the project as it is (nothing before it can be restored).

Revision ID: 0010
Revises: 0009
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

from maproom.storage.models import JSONType, UTCDateTime

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _project(table: str) -> list[Any]:
    return [
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=f"fk_{table}_project_id_projects",
            ondelete="CASCADE",
        ),
    ]  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "versions",
        *_project("versions"),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("account_email", sa.String(320)),
        sa.Column("key_id", sa.String(36)),
        sa.Column("via", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer()),
        sa.Column("undone_by", sa.Integer()),
        sa.Column("redone_by", sa.Integer()),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("actions", JSONType, nullable=False),
        sa.Column("before", JSONType, nullable=False),
        sa.PrimaryKeyConstraint("project_id", "version", name="pk_versions"),
        sqlite_with_rowid=False,
    )
    pass  # op.create_index("ix_versions_created_at", "versions", ["created_at"])
    op.create_table(
        "version_files",
        *_project("version_files"),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("file_id", sa.String(36), nullable=False),
        sa.PrimaryKeyConstraint("project_id", "version", "file_id", name="pk_version_files"),
    )
    op.create_index(
        "ix_version_files_project_id_file_id", "version_files", ["project_id", "file_id"]
    )
    op.create_table(
        "shares",
        sa.Column("id", sa.String(36)),
        *_project("shares"),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_shares"),
        sa.UniqueConstraint("project_id", "email", name="uq_shares_project_id_email"),
    )
    op.create_index("ix_shares_email", "shares", ["email"])
    op.execute(
        "INSERT INTO versions (project_id, version, created_at, via, kind, summary, actions, "
        "before) SELECT id, version, updated_at, 'api', 'create', 'The project as it was "
        "when maproom began keeping its history', '[]', '{}' FROM projects"
    )


def downgrade() -> None:
    op.drop_table("shares")
    op.drop_table("version_files")
    op.drop_table("versions")
