"""One record a match: a unique (table_id, match_no), so saving a match's record twice (its end
published again after a crash) is refused by the database too.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A unique index, not a constraint: SQLite would rebuild the table for a constraint, which the
    # foreign key of record_seats forbids.
    op.create_index("uq_records_table_match", "records", ["table_id", "match_no"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_records_table_match", table_name="records")
