"""Who sat where in each finished match, indexed by player: a player's match history without
reading every record.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    seats = op.create_table(
        "record_seats",
        sa.Column("record_id", sa.Integer, sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False, index=True),
    )
    # The records saved before this table existed name their players in the record's "player_ids".
    records = sa.table("records", sa.column("id", sa.Integer), sa.column("record", sa.JSON))
    rows = []
    for record_id, record in op.get_bind().execute(sa.select(records.c.id, records.c.record)):
        data = json.loads(record) if isinstance(record, str) else record
        for seat, player_id in enumerate((data or {}).get("player_ids") or []):
            if player_id:
                rows.append({"record_id": record_id, "seat": seat, "player_id": player_id})
    if rows:
        op.bulk_insert(seats, rows)


def downgrade() -> None:
    op.drop_table("record_seats")
