"""Foundation: accounts, API keys, projects, messages, idempotency records, usage.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from maproom.storage.models import UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(36)),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("plan", sa.String(32), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("email", name="uq_accounts_email"),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(36)),
        sa.Column("account_id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("scopes", JSON, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("last_used_at", UTCDateTime()),
        sa.Column("revoked_at", UTCDateTime()),
        sa.PrimaryKeyConstraint("id", name="pk_api_keys"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            ondelete="CASCADE",
            name="fk_api_keys_account_id_accounts",
        ),
        sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),
    )
    op.create_index("ix_api_keys_prefix", "api_keys", ["prefix"])
    op.create_index("ix_api_keys_account_id", "api_keys", ["account_id"])
    op.create_table(
        "projects",
        sa.Column("id", sa.String(36)),
        sa.Column("account_id", sa.String(36), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("map_state", JSON, nullable=False),
        sa.Column("forked_from_id", sa.String(36)),
        sa.Column("shared_by", JSON),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_projects"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            ondelete="CASCADE",
            name="fk_projects_account_id_accounts",
        ),
    )
    op.create_index(
        "ix_projects_account_id_updated_at_id", "projects", ["account_id", "updated_at", "id"]
    )
    op.create_table(
        "messages",
        sa.Column("id", sa.String(36)),
        sa.Column("project_id", sa.String(36), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("actions", JSON, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_messages"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            ondelete="CASCADE",
            name="fk_messages_project_id_projects",
        ),
    )
    op.create_index("ix_messages_project_id_created_at", "messages", ["project_id", "created_at"])
    op.create_table(
        "idempotency_records",
        sa.Column("key_id", sa.String(36)),
        sa.Column("idem_key", sa.String(255)),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("completed", sa.Boolean, nullable=False),
        sa.Column("status_code", sa.Integer),
        sa.Column("response_headers", JSON),
        sa.Column("response_body", sa.LargeBinary),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key_id", "idem_key", name="pk_idempotency_records"),
        sa.ForeignKeyConstraint(
            ["key_id"],
            ["api_keys.id"],
            ondelete="CASCADE",
            name="fk_idempotency_records_key_id_api_keys",
        ),
    )
    op.create_index("ix_idempotency_records_created_at", "idempotency_records", ["created_at"])
    op.create_table(
        "account_usage",
        sa.Column("account_id", sa.String(36)),
        sa.Column("period", sa.String(7)),
        sa.Column("requests", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "period", name="pk_account_usage"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            ondelete="CASCADE",
            name="fk_account_usage_account_id_accounts",
        ),
    )


def downgrade() -> None:
    for table in (
        "account_usage",
        "idempotency_records",
        "messages",
        "projects",
        "api_keys",
        "accounts",
    ):
        op.drop_table(table)
