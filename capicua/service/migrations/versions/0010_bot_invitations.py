"""The bot API's invitations are kept in the database (a restart, or another node, still knows them).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_invitations",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("bot_id", sa.String(64), nullable=False, index=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("bot_invitations")
