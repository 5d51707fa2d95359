"""Several nodes on one database: the nodes that run (each with a lease it renews) and, on every table, the node
that runs it and its fencing token (``lease``, raised at every change of owner).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("draining", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    # Tables written before this migration have no owner: the first node that starts claims them.
    op.add_column("tables", sa.Column("node", sa.String(64), nullable=True))
    op.add_column("tables", sa.Column("lease", sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_tables_node", "tables", ["node"])


def downgrade() -> None:
    op.drop_index("ix_tables_node", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease")
        batch.drop_column("node")
    op.drop_table("nodes")
