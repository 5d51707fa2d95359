"""Tables, their events, and finished match records.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(32), nullable=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_records_table_id", "records", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_records_table_id", "records")
    op.drop_table("records")
    op.drop_table("events")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
