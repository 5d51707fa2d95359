"""Accounts on SQLite and on PostgreSQL (``store_url``): usernames folded and unique in the database (two nodes
cannot race past it), migration 0011 keying the accounts made before it, and sessions that end for every node
sharing the database (log out everywhere, a new password)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from capicua.service import store as store_module
from capicua.service.accounts import Accounts
from capicua.service.errors import ServiceError
from capicua.service.identity import GuestIdentities, Identity
from capicua.service.store import Store
from tests.aio import run_async

T = TypeVar("T")
SECRET = "test-secret"


def run(coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
    return run_async(asyncio.wait_for(coro, timeout))


async def node(url: str) -> tuple[Store, Accounts]:
    """One server's store and accounts on the database at ``url`` (several may share it)."""
    store = Store(url)
    await store.open()
    return store, Accounts(store.accounts, GuestIdentities(SECRET))


def test_the_database_refuses_a_username_that_folds_or_looks_like_a_taken_one(store_url: str) -> None:
    async def body() -> None:
        store, _ = await node(store_url)
        try:
            accounts = store.accounts
            assert await accounts.add("a:1", "alice", "Alice", "x")
            assert await accounts.add("a:2", "ace", "Ace", "x")
            # straight to the store, past every check of the service: the unique keys refuse them
            for k, other in enumerate(["ALICE", "Alice", "ａｌｉｃｅ", "Аlice", "асе", "ACE"]):
                assert not await accounts.add(f"a:x{k}", other, other, "x"), other
            for typed in ["alice", "ALICE", "AlIcE", "ａｌｉｃｅ", " alice "]:
                found = await accounts.by_username(typed)
                assert found is not None and found.id == "a:1", typed
            assert await accounts.by_username("Аlice") is None  # a look-alike is no look-up
            assert (await accounts.by_username("ALICE")).username == "alice"  # type: ignore[union-attr]
        finally:
            await store.close()

    run(body())


def test_two_nodes_signing_up_one_name_in_two_widths_at_once_make_one_account(store_url: str) -> None:
    async def body() -> None:
        (one, a), (two, b) = await node(store_url), await node(store_url)
        try:
            results = await asyncio.gather(
                a.sign_up("Straße", "password1"), b.sign_up("STRASSE", "password1"), return_exceptions=True
            )
            made = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, ServiceError)]
            assert len(made) == 1 and len(refused) == 1, results
            assert refused[0].code == "taken"
            who, _ = made[0]
            for typed in ("strasse", "STRAßE", "Strasse"):
                assert (await a.log_in(typed, "password1"))[0].id == who.id
        finally:
            await one.close()
            await two.close()

    run(body())


def test_migration_0011_keys_the_accounts_made_before_it(empty_store_url: str) -> None:
    """A database at 0010 with accounts (lower-case usernames then): after the upgrade they are found in any case,
    a name that folds like theirs is refused, and their sessions are of generation 0 (tokens made before stay)."""

    def upgrade(connection: Any, target: str) -> None:
        config = Config()
        config.set_main_option("script_location", str(Path(store_module.__file__).parent.parent / "migrations"))
        config.attributes["connection"] = connection
        command.upgrade(config, target)

    async def body() -> None:
        store = Store(empty_store_url)
        async with store.engine.begin() as conn:
            await conn.run_sync(upgrade, "0010")
            for account_id, username in (("a:1", "ana.silva"), ("g:2", "bia_10")):
                await conn.execute(
                    text(
                        "INSERT INTO accounts (id, username, name, password_hash, created_at, bot) "
                        "VALUES (:id, :username, :username, 'x', CURRENT_TIMESTAMP, false)"
                    ),
                    {"id": account_id, "username": username},
                )
        old_token = GuestIdentities(SECRET).signer.dumps({"id": "a:1", "name": "ana.silva", "guest": False})
        await store.open()  # upgrades to head
        try:
            assert (await store.accounts.by_username("Ana.Silva")).id == "a:1"  # type: ignore[union-attr]
            assert (await store.accounts.by_username("ＢＩＡ_10")).id == "g:2"  # type: ignore[union-attr]
            assert not await store.accounts.add("a:3", "ANA.SILVA", "Ana", "x")
            accounts = Accounts(store.accounts, GuestIdentities(SECRET))
            assert await accounts.authenticate(old_token) == Identity("a:1", "ana.silva", guest=False)
        finally:
            await store.close()

    run(body())


def test_sessions_end_for_every_node_sharing_the_database(store_url: str) -> None:
    async def body() -> None:
        (one, a), (two, b) = await node(store_url), await node(store_url)
        try:
            guest, guest_token = a.identities.new_guest("Ana")
            who, first = await a.sign_up("ana", "password1", guest=guest)  # the guest keeps his id
            _, second = await b.log_in("ANA", "password1")
            for token in (first, second):
                assert await a.authenticate(token) == who and await b.authenticate(token) == who
            assert await b.authenticate(guest_token) == guest  # his guest token counts as a session of his
            await b.end_sessions(who)  # log out everywhere, on the other node
            for token in (first, second, guest_token):
                assert await a.authenticate(token) is None and await b.authenticate(token) is None
            # a new password, from a new session: that session goes on under its new token, the others end
            _, third = await a.log_in("ana", "password1")
            _, fourth = await b.log_in("ana", "password1")
            with pytest.raises(ServiceError) as wrong:
                await a.change_password(who, "not-my-password", "password2")
            assert wrong.value.code == "wrong-password"
            assert await b.authenticate(third) == who  # a wrong password changes nothing
            renewed, fifth = await a.change_password(who, "password1", "password2")
            assert renewed == who and await b.authenticate(fifth) == who
            assert await a.authenticate(third) is None and await b.authenticate(fourth) is None
            with pytest.raises(ServiceError):
                await b.log_in("ana", "password1")
            assert (await b.log_in("ana", "password2"))[0] == who
        finally:
            await one.close()
            await two.close()

    run(body())
