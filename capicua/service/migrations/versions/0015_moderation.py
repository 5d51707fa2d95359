"""Moderation (issue 21): an account's role (``admin``), a moderator's ban, mute and hidden name, when its
playban was lifted, and the moderation log (every action with its reason).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=True))
        batch.add_column(sa.Column("banned_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("name_hidden", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("forgiven_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "moderation",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_id", sa.String(64), nullable=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_moderation_at", "moderation", ["at"])
    op.create_index("ix_moderation_player_id", "moderation", ["player_id"])
    # An abandonment is a rated match's change marked ``abandoned``: the playbans read them per player.
    op.create_index("ix_rating_changes_player_at", "rating_changes", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player_at", "rating_changes")
    op.drop_table("moderation")
    with op.batch_alter_table("accounts") as batch:
        for column in ("forgiven_at", "name_hidden", "muted_until", "banned_until", "role"):
            batch.drop_column(column)
