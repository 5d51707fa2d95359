"""The database schema, as SQLAlchemy 2 mapped classes (Alembic migrations create and upgrade it)."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from sqlalchemy import JSON, Boolean, Date, DateTime, Float, ForeignKey, Index, Integer, String, false, text
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

__all__ = [
    "AccountRow",
    "AnalysisRow",
    "ApiTokenRow",
    "Base",
    "EventRow",
    "MedalRow",
    "NodeRow",
    "PairingRow",
    "PuzzleAttemptRow",
    "PuzzleRatingRow",
    "PuzzleRow",
    "QuickPlayTicketRow",
    "RatingChangeRow",
    "RatingRow",
    "RecordRow",
    "RecordSeatRow",
    "TableRow",
    "TournamentForbiddenRow",
    "TournamentRefereeRow",
    "TournamentRow",
    "TournamentTeamRow",
    "UTCDateTime",
    "WeekClosedRow",
    "now",
]


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A moment, kept in UTC: every DateTime column of the schema is one (``tests/service/test_store.py`` checks).

    Binding (a row's value, and the bounds of a comparison: ``RatingChangeRow.at >= since`` binds ``since``
    through this type too) takes an aware moment in any zone and writes it in UTC; a naive one is refused
    (``ValueError``): nothing in capicua makes one, and guessing its zone is how 19:00 in Manaus became 19:00
    UTC. Reading gives an aware moment in UTC on both databases: SQLite keeps the text of the UTC moment
    without its zone (the format it always had, so rows written before read the same), PostgreSQL a
    ``timestamptz``. The column type in the database is ``DateTime(timezone=True)`` as before: no migration.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError(f"a moment without its time zone: {value!r}")
        try:
            return value.astimezone(dt.UTC)
        except OverflowError:
            raise ValueError(f"{value.isoformat()} is beyond the years 1 to 9999 in UTC") from None

    def process_result_value(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON, dt.datetime: UTCDateTime}


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(default=False)
    invite: Mapped[str | None] = mapped_column(String(32), default=None)
    owner: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)  # open, playing, finished
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    #: D1: its matches change ratings (account holders only; migration 0005).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: C10: the tournament this table plays a round of (migration 0006), and the players each seat is
    #: kept for (nobody else sits there).
    tournament_id: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)
    reserved: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True, default=None)
    #: A rated table whose matches are rated even with bot accounts among people (migration 0007).
    bots_rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The node that runs the table (None: nobody now; the first node to look claims it), and its fencing
    #: token: raised at every change of owner, and an event is written only under the token it was
    #: appended with (migration 0012; docs/architecture.md, "Several nodes").
    node: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None, index=True)
    lease: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: Quick games against bots (``bots_after``, migration 0014): when the empty seats get bots of which level
    #: and the match starts, ``{"at": ISO time, "level": bot level}``; None: the table waits for people.
    fill: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    #: Seconds from the moment every seat is taken to the match starting by itself (migration 0016; issue 22,
    #: item 9); None: the players start it.
    autostart: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)


class NodeRow(Base):
    """A server process sharing the database, alive while its lease has not run out (migration 0012)."""

    __tablename__ = "nodes"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: Raised at every start under this name: a renewal by an older run of the name fails.
    epoch: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    #: Shutting down: it hands its tables over and takes no new ones.
    draining: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class QuickPlayTicketRow(Base):
    """A player's wait in a game's rated quick-play queue (``capicua.service.quickplay``, migration 0013): kept
    in the database so that any node answers for it and the leading node matches every node's players."""

    __tablename__ = "quickplay_tickets"
    __table_args__ = (
        # The leader's read: the waiting tickets of a game (table_id NULL).
        Index("ix_quickplay_tickets_game_waiting", "game", "table_id"),
        # One waiting ticket a player, whatever node he joined through (a new join replaces it).
        Index(
            "uq_quickplay_tickets_player_waiting",
            "player_id",
            unique=True,
            sqlite_where=text("table_id IS NULL"),
            postgresql_where=text("table_id IS NULL"),
        ),
    )

    #: The order of arrival (ties of ``since`` go to the first to join, as in one process's queue).
    n: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: The ticket the player asks about (random: nobody guesses another's).
    id: Mapped[str] = mapped_column(String(16), unique=True)
    player_id: Mapped[str] = mapped_column(String(64))
    #: The rest of the player's Identity, to seat him at the table made for his group.
    player_name: Mapped[str] = mapped_column(String(64))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    game: Mapped[str] = mapped_column(String(16))
    rating: Mapped[float] = mapped_column(Float)
    #: When he joined (his range widens from then), and when he last asked (forgotten after a while).
    since: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    seen: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    #: The table his group was seated at; None while he waits. Set once, by the one claim that wins.
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True, default=None)


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class RecordRow(Base):
    __tablename__ = "records"
    #: One record a match (migration 0004): saving a match's record again changes nothing.
    __table_args__ = (Index("uq_records_table_match", "table_id", "match_no", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    match_no: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[Any]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class RecordSeatRow(Base):
    """Who sat at each seat of a finished match (people only: bots and empty seats have no row)."""

    __tablename__ = "record_seats"

    record_id: Mapped[int] = mapped_column(ForeignKey("records.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # a guest who signs up keeps his id
    username: Mapped[str] = mapped_column(String(32), unique=True)  # as typed (NFKC), lower case before 0011
    name: Mapped[str] = mapped_column(String(32))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    #: A bot account (migration 0007): a program plays it over the bot API; flagged when it is created.
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The username as every look-up matches it (``capicua.service.usernames.username_key``, migration 0011);
    #: unique: two usernames that fold alike cannot both exist. Every insert writes it (the default is for the
    #: rows the migration then fills).
    username_key: Mapped[str] = mapped_column(String(96), unique=True, index=True, server_default="")
    #: ``username_skeleton`` (its look-alikes of other scripts read as Latin letters, migration 0011): unique.
    username_skeleton: Mapped[str] = mapped_column(String(96), unique=True, index=True, server_default="")
    #: The account's session generation (migration 0011): a session token of an older one opens nothing, so
    #: "log out everywhere" and a password change end the sessions by raising it.
    session_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: ``admin``: may moderate (migration 0015, ``capicua admin grant``); None, a player.
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: A moderator's ban (migration 0015): nothing opens the account until then (``FOREVER``: for good).
    banned_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: A moderator's mute: the account says nothing at tables until then.
    muted_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: A moderator hid the account's name: it shows a neutral one and may not be renamed until he shows it.
    name_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: A moderator lifted the account's playban then: the abandonments before it count no more.
    forgiven_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)


class ModerationRow(Base):
    """One action of a moderator (or of the operator's ``capicua admin``), with its reason: the moderation
    log, kept forever (migration 0015)."""

    __tablename__ = "moderation"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)
    #: The moderator's account; None: the operator, from the command line.
    by_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    action: Mapped[str] = mapped_column(String(24))
    reason: Mapped[str] = mapped_column(String(500))
    #: Until when a ban or a mute holds (``FOREVER``: for good); None for the other actions.
    until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)


class AnalysisRow(Base):
    """A hand review (capicua.bots.analysis) of a stored record (``r<id>``) or of an uploaded one
    (``u<sha-256 of its JSON>``, kept here too, for its replay): computed once, kept."""

    __tablename__ = "analyses"

    key: Mapped[str] = mapped_column(String(72), primary_key=True)
    record_id: Mapped[int | None] = mapped_column(ForeignKey("records.id"), nullable=True, index=True)
    worlds: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # an uploaded record (migration 0009)


class BotInvitationRow(Base):
    """A person's invitation of a bot account to a seat of his open table (the bot API), kept until the bot
    answers it or it is too old (``capicua.service.botapi.hub.INVITATION_TTL``)."""

    __tablename__ = "bot_invitations"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    bot_id: Mapped[str] = mapped_column(String(64), index=True)
    table_id: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: What the bot is told (the table's variant, options and rating, who invites) and a private table's invite.
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)


class ApiTokenRow(Base):
    """A personal API token (the bot API): only its SHA-256 digest is kept; revoked, it opens nothing."""

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    last_used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)


class RatingRow(Base):
    """A player's rating in one game (D1): partnership games keep the model's mu and sigma too."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class RatingChangeRow(Base):
    """What one rated match did to one player's rating: once a match and player (the unique index)."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        Index("uq_rating_changes_match_player", "match_id", "player_id", unique=True),
        Index("ix_rating_changes_game_at", "game", "at"),
        Index("ix_rating_changes_player_at", "player_id", "at"),  # a player's abandonments (migration 0015)
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    won: Mapped[bool] = mapped_column(Boolean)
    before: Mapped[float] = mapped_column(Float)
    #: The change from the result, and the D3 bonus (its own line); after = before + delta + bonus.
    delta: Mapped[float] = mapped_column(Float)
    bonus: Mapped[float] = mapped_column(Float, default=0.0)
    after: Mapped[float] = mapped_column(Float)
    #: The player abandoned the match (and lost it for his side).
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False)


class MedalRow(Base):
    """D4: a medal of a closed week, kept forever."""

    __tablename__ = "medals"

    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    week_start: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    place: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 gold, 2 silver, 3 bronze
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    score: Mapped[float] = mapped_column(Float)


class WeekClosedRow(Base):
    """D4: a week whose ranking has been closed (exactly once: the primary key)."""

    __tablename__ = "weeks_closed"

    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    week_start: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    closed_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class TournamentRow(Base):
    """A Swiss tournament of pairs (C10)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(16))
    organiser: Mapped[str] = mapped_column(String(64))
    #: online (the platform's tables) or board (physical tables: referees enter the hands)
    mode: Mapped[str] = mapped_column(String(8), default="online")
    #: None: ceil(log2(teams)) when the first round is paired
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the match rules of its tables (the game's options: target, strict, match_minutes, move_seconds…)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    starts_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    registration_opens: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    #: None: open until half the rounds have been paired (C10's late entry)
    registration_closes: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: C10: seconds after a round's tables start before an absent team loses by no-show
    no_show_grace: Mapped[int] = mapped_column(Integer, default=300)
    #: pair the next round as soon as the last table of a round ends (else the organiser does)
    auto_pair: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16), default="registration")  # registration, running, finished
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    round_started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class TournamentTeamRow(Base):
    """A pair registered in a tournament: one player invites the other, who accepts."""

    __tablename__ = "tournament_teams"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    team: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    player_a: Mapped[str] = mapped_column(String(64))
    player_b: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))  # invited, registered, withdrawn
    registered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)
    #: the first round it may be paired in (a late entry misses the rounds before: 0-0 losses)
    entered_round: Mapped[int] = mapped_column(Integer, default=1)
    no_shows: Mapped[int] = mapped_column(Integer, default=0)


class PairingRow(Base):
    """A round's board: two teams (or a bye), their table, and the result once there is one."""

    __tablename__ = "tournament_pairings"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_a: Mapped[int] = mapped_column(Integer)
    team_b: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a bye
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16))  # playing, done
    #: played, bye, forfeit (a no-show), award (C8), board (entered by a referee), abandon
    kind: Mapped[str | None] = mapped_column(String(16), nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)  # a team, None while not done
    points_a: Mapped[int] = mapped_column(Integer, default=0)
    points_b: Mapped[int] = mapped_column(Integer, default=0)
    #: over the board: the hands a referee entered, [[points_a, points_b, note], …]
    hands: Mapped[list[Any]] = mapped_column(JSON, default=list)


class TournamentForbiddenRow(Base):
    """Two teams the organiser forbids to pair (teammates from the same club)."""

    __tablename__ = "tournament_forbidden"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    team_a: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_b: Mapped[int] = mapped_column(Integer, primary_key=True)


class TournamentRefereeRow(Base):
    """A referee of a tournament, and the boards he looks after (empty: all of them)."""

    __tablename__ = "tournament_referees"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    boards: Mapped[list[Any]] = mapped_column(JSON, default=list)


class PuzzleRow(Base):
    """A puzzle (capicua.bots.puzzles): a decision of a real hand where one move is clearly best, with its
    source (a stored record and the decision's index in its review, or an expert self-play match's seed) and its
    Glicko-2 rating (the solves are games between person and puzzle: docs/puzzles.md)."""

    __tablename__ = "puzzles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: Where it comes from, unique: ``r<record id>:<decision>`` or ``s<seed>:<variant>:<decision>``.
    key: Mapped[str] = mapped_column(String(64), unique=True)
    variant: Mapped[str] = mapped_column(String(16))
    source: Mapped[str] = mapped_column(String(16))  # "record" or "self-play"
    record_id: Mapped[int | None] = mapped_column(ForeignKey("records.id"), nullable=True, index=True)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    decision: Mapped[int] = mapped_column(Integer)  # 0-based, in the order of the record's review
    hand: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    themes: Mapped[list[Any]] = mapped_column(JSON)
    #: The puzzle itself (capicua.bots.puzzles.Puzzle.to_json): the seat's view, answers, each move's points.
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    rating: Mapped[float] = mapped_column(Float, index=True)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class PuzzleRatingRow(Base):
    """A person's puzzle rating (Glicko-2), apart from his match ratings. Guests have none: theirs is kept by
    their page for the session."""

    __tablename__ = "puzzle_ratings"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now)


class PuzzleAttemptRow(Base):
    """A person's first try at a puzzle: the move, whether it was right, and both ratings' change."""

    __tablename__ = "puzzle_attempts"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    move: Mapped[str] = mapped_column(String(24))
    won: Mapped[bool] = mapped_column(Boolean)
    change: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=now, index=True)
