"""Ratings (D1–D5): rated tables, each player's rating per game, what every rated match changed, and the
weekly medals with the weeks already closed.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False, index=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("delta", sa.Float, nullable=False),
        sa.Column("bonus", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
    )
    op.create_index("uq_rating_changes_match_player", "rating_changes", ["match_id", "player_id"], unique=True)
    op.create_index("ix_rating_changes_game_at", "rating_changes", ["game", "at"])
    op.create_table(
        "medals",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("week_start", sa.Date, primary_key=True),
        sa.Column("place", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False, index=True),
        sa.Column("score", sa.Float, nullable=False),
    )
    op.create_table(
        "weeks_closed",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("week_start", sa.Date, primary_key=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("weeks_closed")
    op.drop_table("medals")
    op.drop_index("ix_rating_changes_game_at", table_name="rating_changes")
    op.drop_index("uq_rating_changes_match_player", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
