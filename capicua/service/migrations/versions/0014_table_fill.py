"""A table's ``bots_after`` (quick games against bots): when its empty seats get bots and its match starts,
kept with the table, so that the node that takes the table over (or the same node after a restart) keeps the
appointment instead of leaving the table open forever.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("fill", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fill")
