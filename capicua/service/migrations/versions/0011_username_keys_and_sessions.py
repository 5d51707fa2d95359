"""Usernames are matched by one fold (NFKC, case-folded) and refused when they fold, or look, like another
(unique keys); accounts get a session generation, so sessions can be ended.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from capicua.service.usernames import username_key, username_skeleton

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added with a default and filled below, then indexed: SQLite adds such columns in place (making a column
    # NOT NULL afterwards would copy the table, which the foreign keys to accounts do not allow).
    op.add_column("accounts", sa.Column("username_key", sa.String(96), nullable=False, server_default=""))
    op.add_column("accounts", sa.Column("username_skeleton", sa.String(96), nullable=False, server_default=""))
    op.add_column("accounts", sa.Column("session_generation", sa.Integer, nullable=False, server_default="0"))
    accounts = sa.table(
        "accounts", sa.column("id"), sa.column("username"), sa.column("username_key"), sa.column("username_skeleton")
    )
    connection = op.get_bind()
    # The usernames so far are lower-case ASCII (3-24 of a-z 0-9 _ . -): each is its own key and skeleton, so
    # no two of them collide.
    for account_id, username in connection.execute(sa.select(accounts.c.id, accounts.c.username)).all():
        connection.execute(
            accounts.update()
            .where(accounts.c.id == account_id)
            .values(username_key=username_key(username), username_skeleton=username_skeleton(username))
        )
    op.create_index("ix_accounts_username_key", "accounts", ["username_key"], unique=True)
    op.create_index("ix_accounts_username_skeleton", "accounts", ["username_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_username_skeleton", "accounts")
    op.drop_index("ix_accounts_username_key", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("session_generation")
        batch.drop_column("username_skeleton")
        batch.drop_column("username_key")
