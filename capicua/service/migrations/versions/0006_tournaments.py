"""Swiss tournaments of pairs (C10) with table referees (C8): tournaments, their teams, each round's pairings
and results, forbidden pairings, referees; and which tournament a table plays for, with its seats kept.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("tournament_id", sa.String(16), nullable=True))
    op.add_column("tables", sa.Column("reserved", sa.JSON, nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("organiser", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("registration_opens", sa.DateTime(timezone=True), nullable=False),
        sa.Column("registration_closes", sa.DateTime(timezone=True), nullable=True),
        sa.Column("no_show_grace", sa.Integer, nullable=False),
        sa.Column("auto_pair", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer, nullable=False),
        sa.Column("round_started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_teams",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("team", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("player_a", sa.String(64), nullable=False),
        sa.Column("player_b", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("entered_round", sa.Integer, nullable=False),
        sa.Column("no_shows", sa.Integer, nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("team_a", sa.Integer, nullable=False),
        sa.Column("team_b", sa.Integer, nullable=True),
        sa.Column("table_id", sa.String(16), nullable=True, index=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("points_a", sa.Integer, nullable=False),
        sa.Column("points_b", sa.Integer, nullable=False),
        sa.Column("hands", sa.JSON, nullable=False),
    )
    op.create_table(
        "tournament_forbidden",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("team_a", sa.Integer, primary_key=True),
        sa.Column("team_b", sa.Integer, primary_key=True),
    )
    op.create_table(
        "tournament_referees",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("boards", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    for table in ("tournament_referees", "tournament_forbidden", "tournament_pairings", "tournament_teams"):
        op.drop_table(table)
    op.drop_table("tournaments")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("reserved")
        batch.drop_column("tournament_id")
