"""A table's ``autostart`` (issue 22, item 9): the seconds between its last free seat being taken and its match
starting by itself (None: only its players start it), kept with the table, so that a restart, or the node that
takes the table over, keeps the countdown. Tables made before this revision keep waiting for a player's start.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("autostart", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("autostart")
