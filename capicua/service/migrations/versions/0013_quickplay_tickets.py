"""Rated quick play across nodes: the queue's tickets are kept in the database, so that any node answers for
any ticket and the leading node matches the players of every node.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quickplay_tickets",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(16), nullable=False, unique=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("player_name", sa.String(64), nullable=False),
        sa.Column("guest", sa.Boolean, nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=True),
    )
    op.create_index("ix_quickplay_tickets_game_waiting", "quickplay_tickets", ["game", "table_id"])
    # One waiting ticket a player (a new join replaces it, whichever node it reaches).
    op.create_index(
        "uq_quickplay_tickets_player_waiting",
        "quickplay_tickets",
        ["player_id"],
        unique=True,
        sqlite_where=sa.text("table_id IS NULL"),
        postgresql_where=sa.text("table_id IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("uq_quickplay_tickets_player_waiting", "quickplay_tickets")
    op.drop_index("ix_quickplay_tickets_game_waiting", "quickplay_tickets")
    op.drop_table("quickplay_tickets")
