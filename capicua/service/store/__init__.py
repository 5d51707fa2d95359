"""Persistence, split by concern, each behind an interface: ``events`` (tables and their event logs),
``records`` (finished matches), ``accounts``, ``ratings`` (ratings, rating changes, medals) and
``tournaments`` (Swiss tournaments: teams, boards, referees), ``tokens`` (the bot API's tokens),
``invitations`` (the bot API's invitations), ``analyses`` (hand reviews of records), ``quickplay``
(the rated quick-play queue's tickets), ``conduct`` (abandonments, moderation), ``nodes`` (the server
processes sharing the database) and ``puzzles`` (puzzles from real hands, their ratings and tries); one
database under them (SQLAlchemy 2: SQLite by default, PostgreSQL by URL), its schema created and upgraded by
Alembic migrations (``capicua/service/migrations``) when the store opens.

>>> store = Store("sqlite+aiosqlite:///:memory:")
>>> type(store.events).__name__, type(store.records).__name__, type(store.accounts).__name__
('SqlEventStore', 'SqlRecordStore', 'SqlAccountStore')
>>> type(store.ratings).__name__
'SqlRatingStore'
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from capicua.service.store.accounts import AccountStore, SqlAccountStore
from capicua.service.store.analyses import AnalysisStore, SqlAnalysisStore
from capicua.service.store.conduct import ConductStore, SqlConductStore
from capicua.service.store.database import Database, StoreError, default_url
from capicua.service.store.events import EventStore, LeaseLost, SqlEventStore, StoredEvent
from capicua.service.store.invitations import InvitationStore, SqlInvitationStore
from capicua.service.store.nodes import NodeStore, SqlNodeStore
from capicua.service.store.puzzles import PuzzleStore, SqlPuzzleStore
from capicua.service.store.quickplay import QuickPlayStore, SqlQuickPlayStore
from capicua.service.store.ratings import RatingStore, SqlRatingStore
from capicua.service.store.records import RecordStore, SqlRecordStore
from capicua.service.store.schema import (
    AccountRow,
    Base,
    EventRow,
    MedalRow,
    RatingChangeRow,
    RatingRow,
    RecordRow,
    RecordSeatRow,
    TableRow,
)
from capicua.service.store.tokens import SqlTokenStore, TokenStore
from capicua.service.store.tournaments import SqlTournamentStore, TournamentStore

__all__ = [
    "AccountRow",
    "AccountStore",
    "AnalysisStore",
    "Base",
    "ConductStore",
    "Database",
    "EventRow",
    "EventStore",
    "InvitationStore",
    "LeaseLost",
    "MedalRow",
    "NodeStore",
    "PuzzleStore",
    "QuickPlayStore",
    "RatingChangeRow",
    "RatingRow",
    "RatingStore",
    "RecordRow",
    "RecordSeatRow",
    "RecordStore",
    "Store",
    "StoreError",
    "StoredEvent",
    "TableRow",
    "TokenStore",
    "TournamentStore",
    "default_url",
]


class Store:
    """The platform's stores on one database: ``events``, ``records``, ``accounts``, ``ratings``,
    ``tournaments``, ``tokens``, ``invitations``, ``analyses``, ``quickplay``, ``conduct``, ``nodes``,
    ``puzzles``."""

    def __init__(self, url: str) -> None:
        self.db = Database(url)
        self.events: EventStore = SqlEventStore(self.db)
        self.records: RecordStore = SqlRecordStore(self.db)
        self.accounts: AccountStore = SqlAccountStore(self.db)
        self.ratings: RatingStore = SqlRatingStore(self.db)
        self.tournaments: TournamentStore = SqlTournamentStore(self.db)
        self.tokens: TokenStore = SqlTokenStore(self.db)
        self.invitations: InvitationStore = SqlInvitationStore(self.db)
        self.analyses: AnalysisStore = SqlAnalysisStore(self.db)
        self.quickplay: QuickPlayStore = SqlQuickPlayStore(self.db)
        self.conduct: ConductStore = SqlConductStore(self.db)
        self.nodes: NodeStore = SqlNodeStore(self.db)
        self.puzzles: PuzzleStore = SqlPuzzleStore(self.db)

    @property
    def url(self) -> str:
        return self.db.url

    @property
    def engine(self) -> AsyncEngine:
        return self.db.engine

    async def open(self) -> None:
        """Check the database is reachable and bring its schema up to date (Alembic)."""
        await self.db.open()

    async def close(self) -> None:
        await self.events.close()  # what was appended gets written
        await self.db.close()
