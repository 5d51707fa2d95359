"""Any node answers for any table: what is asked of a table another node runs goes there over Redis, and the
frames of its subscribers on this node come back the same way.

- **Operations** (:mod:`capicua.service.relay.ops`): run here when this node runs the table, else sent to the
  node that does (``op``), whose answer (a value, or the table's own error) comes back as it is. A request
  that reached nobody did nothing (``unavailable``); one that got no answer in time may have been done
  (``unknown``): an action is then sent again with the same ``ref``, which the table answers without making
  it twice (``EventLog.refs``).
- **Subscriptions.** A client here that subscribes to a table run by node A becomes, on A, a subscriber like
  any other (``watch``), whose ``send`` posts the frame to this node: A builds each frame for that client's
  seat, exactly as for its own clients, so what a seat may see is decided in one place. This node only hands
  the frames over (in order: A posts them in order, and Redis delivers one publisher's messages in order).
- **Keep-alive.** Every ``KEEP_EVERY`` seconds this node tells each owner which of its subscriptions it
  still has (``keep``); the owner forgets a subscription not kept for ``FORGET_AFTER`` seconds (its node
  died). A subscription the owner no longer has (the table moved, or it restarted), or whose owner does not
  answer, gets a ``moved`` frame here: its client subscribes again, and is routed to the new owner.
- **What each node shows the others** (:meth:`Router.show`): every ``KEEP_EVERY`` seconds each node puts in
  Redis, under ``capicua:<name>:<node>`` for three keep-alives, what it has of a kind: ``lobby``, the summaries
  of its public tables, open or in play; ``online``, the bot accounts with an event stream open here. What
  all nodes have (:meth:`Router.everywhere`) is this node's own now and the other living nodes' as they last
  said. A node that dies drops out when its entry expires; Redis restarted empty has every node's entry again
  within a keep-alive.
- **Telling every node** (:meth:`Router.tell`): what concerns clients wherever they are connected (an event for
  an account's streams, a rename) is done on this node and published to the others, once, at most (Redis away:
  the other nodes miss it; ``docs/operations.md`` says what that costs).
- **Where somebody sits** (:meth:`Router.seated`): the tables of every living node where a player sits, asked of
  each node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis.exceptions import RedisError

from capicua.service.errors import Elsewhere, ServiceError
from capicua.service.identity import Identity
from capicua.service.relay.ops import OPS
from capicua.service.relay.transport import RedisTransport, Unreachable
from capicua.service.tables import Subscriber, Table, TableService

__all__ = ["FORGET_AFTER", "KEEP_EVERY", "Router", "Subscription"]

log = logging.getLogger("capicua.relay")

#: Seconds between two keep-alives of this node's subscriptions to other nodes' tables.
KEEP_EVERY = 2.0
#: Seconds after which an owner forgets a subscription of another node that was not kept.
FORGET_AFTER = 10.0

Send = Callable[[Any], Awaitable[None]]
#: What is done on every node when told (:meth:`Router.tell`): the payload, a JSON object.
Listener = Callable[[dict[str, Any]], Awaitable[None]]


class Subscription:
    """A client's subscription to one table, wherever the table runs."""

    @property
    def closed(self) -> bool:
        """Whether it ended (the table let it go: a ``moved`` was sent)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


@dataclass(eq=False)
class _Local(Subscription):
    table: Table
    sub: Subscriber

    @property
    def closed(self) -> bool:
        return self.sub.closed

    def close(self) -> None:
        self.table.unsubscribe(self.sub)


@dataclass(eq=False)
class _Remote(Subscription):
    """This node's client subscribed to a table another node runs."""

    id: str
    table_id: str
    node: str
    send: Send
    router: Router
    last: int | None = None  # the last event number handed over (a gap: the client must subscribe again)

    @property
    def closed(self) -> bool:
        return self.id not in self.router.remote

    def close(self) -> None:
        self.router.forget(self)


@dataclass(eq=False)
class _Served:
    """Another node's client subscribed to a table this node runs."""

    node: str
    table: Table
    sub: Subscriber
    kept: float = field(default_factory=time.monotonic)


def _subscriber(table: Table, who: Identity | None, send: Send, view: bool) -> Subscriber:
    """A subscriber of ``table`` for ``who``; with ``view``, its frames carry his seat's engine view."""
    if not view:
        return Subscriber(who, table.seat_of(who), send)

    async def with_view(frame: Any) -> None:
        await send(table.with_view(frame, table.seat_of(who)))

    return Subscriber(who, table.seat_of(who), with_view)


def shown_key(name: str, node: str) -> str:
    """Where ``node`` shows the other nodes what it has of ``name`` (:meth:`Router.show`)."""
    return f"capicua:{name}:{node}"


def identity_json(who: Identity | None) -> dict[str, Any] | None:
    return None if who is None else {"id": who.id, "name": who.name, "guest": who.guest, "bot": who.bot}


def identity_of(data: dict[str, Any] | None) -> Identity | None:
    return None if data is None else Identity(data["id"], data["name"], bool(data["guest"]), bool(data["bot"]))


class Router:
    """Where every request about a table goes: the table service here, or the node that runs the table."""

    def __init__(self, tables: TableService, transport: RedisTransport | None = None) -> None:
        self.tables = tables
        self.transport = transport
        self.remote: dict[str, _Remote] = {}
        self.served: dict[str, _Served] = {}
        self._listeners: dict[str, list[Listener]] = {}
        self._shown: dict[str, Callable[[], list[Any]]] = {"lobby": lambda: [t.summary() for t in tables.open_tables()]}

    async def start(self) -> None:
        if self.transport is not None:
            await self.transport.start(self._handle, self._frame, self._told)
            self.tables.spawn(self._keep())

    async def close(self) -> None:
        if self.transport is not None:
            await self.transport.close()

    # -- what this node's clients ask ------------------------------------------------------------------
    async def call(self, table_id: str, op: str, who: Identity | None, **args: Any) -> Any:
        """Operation ``op`` on the table, wherever it runs; its answer."""
        for _ in range(3):  # the table may move while the request goes to it: follow it
            try:
                table = await self.tables.fetch(table_id)
            except Elsewhere as elsewhere:
                if self.transport is None:
                    raise
                payload = {"table": table_id, "op": op, "who": identity_json(who), "args": args}
                try:
                    return await self._ask(elsewhere.node, "op", payload)
                except Elsewhere:
                    continue
            return await OPS[op](self.tables, table, who, args)
        raise ServiceError("unavailable", f"table {table_id!r} is changing servers: try again in a moment")

    async def lobby(self) -> list[dict[str, Any]]:
        """The public tables, open or in play, of every living node: this node's as they are now, the others'
        as they last said (at most ``KEEP_EVERY`` seconds ago)."""
        return await self.everywhere("lobby")

    # -- what the nodes show each other, what they tell each other -------------------------------------------
    def show(self, name: str, what: Callable[[], list[Any]]) -> None:
        """Show the other nodes ``what()`` (a list of JSON values) under ``name``, every keep-alive."""
        self._shown[name] = what

    async def everywhere(self, name: str) -> list[Any]:
        """What every living node shows under ``name``, end to end: this node's now, the others' as they last
        said; only this node's while Redis is away."""
        mine = self._shown[name]()
        if self.transport is None:
            return mine
        others = [node for node in await self.tables.alive() if node != self.tables.node]
        try:
            lists = await self.transport.redis.mget([shown_key(name, node) for node in others]) if others else []
        except (RedisError, OSError):
            log.warning("what the other nodes show (%s) could not be read (Redis away)", name)
            return mine
        for entry in lists:
            if entry is not None:
                mine += orjson.loads(entry)
        return mine

    async def _show_all(self) -> None:
        assert self.transport is not None
        async with self.transport.redis.pipeline(transaction=False) as pipe:
            for name, what in self._shown.items():
                pipe.set(shown_key(name, self.tables.node), orjson.dumps(what()), ex=int(3 * KEEP_EVERY) + 1)
            await pipe.execute()

    def listen(self, kind: str, listener: Listener) -> None:
        """Have ``listener`` do what is told of ``kind`` (on this node, whoever tells it)."""
        self._listeners.setdefault(kind, []).append(listener)

    async def tell(self, kind: str, payload: dict[str, Any]) -> None:
        """Have every node's listeners of ``kind`` do ``payload``: this node's now, the others' as soon as they
        hear it (not at all while Redis is away)."""
        await self._told(kind, payload)
        if self.transport is not None:
            try:
                self.transport.tell_all(kind, payload)
            except ConnectionError:
                log.warning("could not tell the other nodes (%s): too much waits for Redis", kind)

    async def _told(self, kind: str, payload: dict[str, Any]) -> None:
        for listener in self._listeners.get(kind, []):
            try:
                await listener(payload)
            except Exception:
                log.exception("what was told (%s) failed here", kind)

    async def seated(self, who: Identity) -> list[dict[str, Any]]:
        """The tables of every living node where ``who`` sits and a match is in play (``table``, ``match``,
        ``variant``, ``seat``); a node that does not answer in time is left out."""
        found = self.tables.seated(who)
        if self.transport is None:
            return found
        others = [node for node in await self.tables.alive() if node != self.tables.node]

        async def ask(node: str) -> list[dict[str, Any]]:
            assert self.transport is not None
            try:
                answer: list[dict[str, Any]] = await self.transport.request(
                    node, "seated", {"who": identity_json(who)}, timeout=3
                )
            except (Unreachable, TimeoutError, ServiceError):
                log.warning("node %s did not say where %s sits", node, who.id)
                return []
            return answer

        for answer in await asyncio.gather(*(ask(node) for node in others)):
            found += answer
        return found

    async def subscribe(
        self,
        table_id: str,
        who: Identity | None,
        invite: str | None,
        last: int | None,
        send: Send,
        view: bool = False,
    ) -> Subscription:
        """Subscribe ``send`` to the table's frames for ``who``, from event ``last``; with ``view``, each frame
        with a state carries the engine's view of his seat too (the bot API's seat streams)."""
        for _ in range(3):  # the table may move while the subscription goes to it: follow it
            try:
                table = await self.tables.entered(table_id, who, invite)
            except Elsewhere as elsewhere:
                if self.transport is None:
                    raise
                remote = await self._watch(elsewhere.node, table_id, who, invite, last, send, view)
                if remote is not None:
                    return remote
                continue
            sub = _subscriber(table, who, send, view)
            await table.subscribe(sub, last)
            return _Local(table, sub)
        raise ServiceError("unavailable", f"table {table_id!r} is changing servers: try again in a moment")

    async def _watch(
        self,
        node: str,
        table_id: str,
        who: Identity | None,
        invite: str | None,
        last: int | None,
        send: Send,
        view: bool,
    ) -> _Remote | None:
        """Subscribe through ``node``, which runs the table: None if it no longer does."""
        remote = _Remote(f"{self.tables.node}/{secrets.token_urlsafe(9)}", table_id, node, send, self)
        self.remote[remote.id] = remote
        payload = {"sub": remote.id, "table": table_id, "who": identity_json(who), "invite": invite, "last": last}
        payload["view"] = view
        try:
            await self._ask(node, "watch", payload)
        except Elsewhere:
            self.remote.pop(remote.id, None)
            return None
        except BaseException:
            self.remote.pop(remote.id, None)
            raise
        return remote

    def forget(self, remote: _Remote) -> None:
        """This node's client no longer follows the remote table: tell its owner (it forgets it anyway)."""
        if self.remote.pop(remote.id, None) is not None and self.transport is not None:
            self.tables.spawn(self._tell(remote.node, "unwatch", {"sub": remote.id}))

    async def _tell(self, node: str, kind: str, payload: dict[str, Any]) -> None:
        assert self.transport is not None
        with contextlib.suppress(Exception):
            await self.transport.request(node, kind, payload, timeout=5)

    async def _ask(self, node: str, kind: str, payload: dict[str, Any]) -> Any:
        assert self.transport is not None
        try:
            return await self.transport.request(node, kind, payload)
        except Unreachable:
            raise ServiceError("unavailable", "the server running the table cannot be reached: try again") from None
        except TimeoutError:
            raise ServiceError(
                "unknown", "the server running the table did not answer: it may have done it; send it again"
            ) from None
        except ServiceError as exc:
            if exc.code == "elsewhere":  # it moved on meanwhile: the caller looks where it is now
                raise Elsewhere(payload["table"], node) from None
            raise

    # -- frames for this node's clients ----------------------------------------------------------------
    async def _frame(self, sub_id: str, frame: dict[str, Any]) -> None:
        remote = self.remote.get(sub_id)
        if remote is None:
            return
        if frame.get("type") == "event":
            n = frame["n"]
            if remote.last is not None and n != remote.last + 1:
                # A frame was lost on the way (Redis away for a moment): the client catches up from its last.
                await self._moved(remote)
                return
            remote.last = n
        elif frame.get("type") in ("state", "synced"):
            remote.last = frame["n"]
        elif frame.get("type") == "moved":
            self.remote.pop(sub_id, None)
        with contextlib.suppress(Exception):
            await remote.send(frame)

    async def _moved(self, remote: _Remote) -> None:
        """The remote subscription has ended: its client is told to subscribe again."""
        self.remote.pop(remote.id, None)
        with contextlib.suppress(Exception):
            await remote.send({"type": "moved", "table": remote.table_id})

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(KEEP_EVERY)
            try:
                await self._keep_once()
            except Exception:
                log.exception("the subscriptions to other nodes could not be kept")

    async def _keep_once(self) -> None:
        """Keep this node's remote subscriptions; forget other nodes' subscriptions nobody keeps; say what this
        node's lobby holds."""
        with contextlib.suppress(RedisError, OSError):
            await self._show_all()
        by_node: dict[str, list[_Remote]] = {}
        for remote in list(self.remote.values()):
            by_node.setdefault(remote.node, []).append(remote)
        for node, remotes in by_node.items():
            assert self.transport is not None
            try:
                gone = set(await self.transport.request(node, "keep", {"subs": [r.id for r in remotes]}, timeout=5))
            except (Unreachable, TimeoutError, ServiceError):
                gone = {r.id for r in remotes}  # its node is dead, or Redis away: subscribe again
            for remote in remotes:
                if remote.id in gone:
                    await self._moved(remote)
        now = time.monotonic()
        for sub_id, served in list(self.served.items()):
            if now - served.kept > FORGET_AFTER or served.sub.closed:
                self._unserve(sub_id)

    # -- what other nodes ask of the tables this one runs ------------------------------------------------
    async def _handle(self, kind: str, p: dict[str, Any], node: str) -> Any:
        if kind == "op":
            if p["op"] not in OPS:
                raise ServiceError("invalid", f"no operation {p['op']!r}")
            table = await self.tables.fetch(p["table"])  # this node's, or elsewhere: the asker follows it
            return await OPS[p["op"]](self.tables, table, identity_of(p["who"]), p["args"])
        if kind == "watch":
            return await self._serve(p, node)
        if kind == "unwatch":
            self._unserve(p["sub"])
            return None
        if kind == "seated":
            who = identity_of(p["who"])
            assert who is not None
            return self.tables.seated(who)
        if kind == "keep":
            now = time.monotonic()
            gone = []
            for sub_id in p["subs"]:
                served = self.served.get(sub_id)
                if served is None or served.sub.closed or served.table.id not in self.tables.tables:
                    gone.append(sub_id)
                    self._unserve(sub_id)
                else:
                    served.kept = now
            return gone
        raise ServiceError("invalid", f"no request {kind!r}")

    async def _serve(self, p: dict[str, Any], node: str) -> None:
        who = identity_of(p["who"])
        table = await self.tables.entered(p["table"], who, p.get("invite"))
        self._unserve(p["sub"])
        transport = self.transport
        assert transport is not None
        sub_id = p["sub"]

        async def send(frame: Any) -> None:
            transport.send_frame(node, sub_id, frame)

        sub = _subscriber(table, who, send, bool(p.get("view")))
        self.served[sub_id] = _Served(node, table, sub)
        await table.subscribe(sub, p.get("last"))

    def _unserve(self, sub_id: str) -> None:
        served = self.served.pop(sub_id, None)
        if served is not None:
            served.table.unsubscribe(served.sub)
