"""Hand reviews (capicua.bots.analysis) of records, stored once computed.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("key", sa.String(72), primary_key=True),
        sa.Column("record_id", sa.Integer, sa.ForeignKey("records.id"), nullable=True, index=True),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
