"""Hand reviews on the server: each computed once, in worker processes, and kept.

:class:`Analyses` runs :mod:`capicua.bots.analysis` for a stored record (key ``r<id>``) or an uploaded
one (key ``u`` + the SHA-256 of its JSON) off the event loop: the decisions are shared out in parts to
a pool of worker processes (``concurrent.futures.ProcessPoolExecutor``), and the progress (decisions
weighed out of all) is there to be asked while it runs. The finished analysis is stored
(``store.analyses``); asking again, on this server or after a restart, reads it back and computes
nothing. One analysis of a key runs at a time: asking while it runs gives its progress.

An upload is read and checked off the event loop too (:func:`check_upload`, in a worker process of its
own: a record of :data:`MAX_UPLOAD` bytes takes seconds to replay), so that no table waits for it.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from capicua.bots.analysis import DEFAULT_WORLDS, Decision, analyse_part, assemble, measure
from capicua.rules.record import Record, RecordError
from capicua.service.errors import ServiceError
from capicua.service.store.analyses import AnalysisStore
from capicua.service.store.records import RecordStore
from capicua.service.workers import pool

__all__ = ["MAX_ACTIONS", "MAX_HAND_ACTIONS", "MAX_UPLOAD", "PART", "Analyses", "Checked", "Progress", "check_upload"]

log = logging.getLogger("capicua.analysis")

PART = 8  # decisions a worker weighs in one go (the progress moves by parts)
#: Largest uploaded record, in bytes of JSON (a whole match's record is a few tens of kilobytes).
MAX_UPLOAD = 1 << 20
#: Most actions in one hand of an uploaded record, and in all of it: a hand has about 50 at most, a match
#: to 1,000 points a few thousand. (Its replay lists every score of the hand after each step: it grows
#: with the square of a hand's length.)
MAX_HAND_ACTIONS = 200
MAX_ACTIONS = 5_000


State = Literal["none", "running", "done", "failed"]


@dataclass
class Progress:
    """Where an analysis stands: ``running`` (``done`` of ``total`` decisions weighed), ``done`` (with
    ``result``, the analysis's JSON) or ``failed`` (``error`` says why)."""

    key: str
    state: State
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None


@dataclass(frozen=True)
class Checked:
    """A record that replays, ready for its analysis: its key, its decisions and its steps."""

    record: Record
    key: str
    decisions: int
    steps: int


def check_upload(body: bytes) -> Checked:
    """In a worker: an uploaded record's JSON read as strictly as every request body (orjson: no NaN, no
    unpaired surrogate…) and replayed with every check of ``capicua replay``; its key is ``u`` and the
    SHA-256 of its JSON. Raises RecordError naming the step that failed."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    record = Record.from_json(data)
    for n, hand in enumerate(record.hands, start=1):
        if len(hand.actions) > MAX_HAND_ACTIONS:
            raise RecordError(f"a hand of at most {MAX_HAND_ACTIONS} actions is analysed here", n)
    if sum(len(hand.actions) for hand in record.hands) > MAX_ACTIONS:
        raise RecordError(f"a record of at most {MAX_ACTIONS} actions is analysed here")
    return _checked(record, None)


def _checked(record: Record, key: str | None) -> Checked:
    decisions, steps = measure(record)
    if key is None:
        text = json.dumps(record.to_json(), sort_keys=True, ensure_ascii=False)
        key = "u" + hashlib.sha256(text.encode()).hexdigest()
    return Checked(record, key, decisions, steps)


def _check_stored(data: dict[str, Any], key: str) -> Checked:
    """In a worker: a stored match's record, measured."""
    return _checked(Record.from_json(data), key)


def _part(text: str, start: int, stop: int, worlds: int, seed: int) -> list[dict[str, Any]]:
    """In a worker: decisions ``start``..``stop`` of the record ``text``, as JSON."""
    return [d.to_json() for d in analyse_part(Record.loads(text), start, stop, worlds, seed)]


class Analyses:
    """The platform's hand reviews. ``workers``: processes in the pool (0: threads of this process,
    for tests); ``worlds``: worlds a decision is weighed in; ``spawn`` starts a background task."""

    def __init__(
        self,
        store: AnalysisStore,
        records: RecordStore,
        spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]],
        workers: int = 1,
        worlds: int = DEFAULT_WORLDS,
        seed: int = 0,
    ) -> None:
        self.store = store
        self.records = records
        self.spawn = spawn
        self.workers = workers
        self.worlds = worlds
        self.seed = seed
        self.running: dict[str, Progress] = {}
        self._uploads: dict[str, Record] = {}  # uploaded records whose analysis runs (kept with it once done)
        self.computed = 0  # analyses computed by this platform (the rest were read back)
        self._pool: Executor | None = None
        self._checks: Executor | None = None  # where uploads are read and replayed

    # -- asking ---------------------------------------------------------------------------------------
    async def of_record(self, record_id: int, start: bool) -> Progress:
        """A stored record's analysis: done, running, or (``start``) started now; not started and not
        asked to start: state ``none``."""
        key = f"r{record_id}"
        known = await self._known(key)
        if known is not None:
            return known
        row = await self.records.get(record_id)
        if row is None:
            raise ServiceError("not-found", f"no record {record_id}")
        if not start:
            return self.running.get(key) or Progress(key, "none")  # a failed one says so
        return self._start(await self._check(_check_stored, row.record, key), record_id)

    async def of_upload(self, body: bytes) -> Progress:
        """An uploaded record's analysis (started if it is new), from its JSON (at most :data:`MAX_UPLOAD`
        bytes: the caller refuses more). A record that does not replay is refused: RecordError."""
        checked = await self._check(check_upload, body)
        known = await self._known(checked.key)
        if known is not None:
            return known
        return self._start(checked, None)

    async def of_key(self, key: str) -> Progress:
        """An analysis by its key (``r<id>``, ``u<digest>``): state ``none`` if there is none."""
        known = await self._known(key)
        return known if known is not None else Progress(key, "none")

    async def upload(self, key: str) -> dict[str, Any]:
        """An uploaded record (key ``u…``) as JSON: kept beside its analysis (from memory while that runs),
        for its replay. Not-found for a record never uploaded here (a stored match has its own record)."""
        if key in self._uploads:
            return self._uploads[key].to_json()
        kept = await self.store.get(key) if key.startswith("u") else None
        if kept is None or kept.record is None:
            raise ServiceError("not-found", f"no uploaded record {key!r}")
        return kept.record

    async def _known(self, key: str) -> Progress | None:
        running = self.running.get(key)
        if running is not None and running.state == "running":
            return running
        row = await self.store.get(key)
        if row is None:
            return None
        total = len(row.result.get("decisions", []))
        return Progress(key, "done", total, total, row.result)

    # -- computing ------------------------------------------------------------------------------------
    async def _check(self, work: Callable[..., Checked], *args: Any) -> Checked:
        """``work`` off the event loop: in the checks' own worker process (its own, so that a check never
        waits behind an analysis's parts), or a thread of this process when ``workers`` is 0 (tests)."""
        if self.workers and self._checks is None:
            self._checks = pool(1)
        return await asyncio.get_running_loop().run_in_executor(self._checks, work, *args)

    def _start(self, checked: Checked, record_id: int | None) -> Progress:
        key = checked.key
        running = self.running.get(key)
        if running is not None and running.state == "running":
            return running  # started meanwhile, by a request that was checked first
        progress = self.running[key] = Progress(key, "running", 0, checked.decisions)
        if record_id is None:
            self._uploads[key] = checked.record
        self.spawn(self._run(progress, record_id, checked))
        return progress

    def _executor(self) -> Executor | None:
        if self.workers == 0:
            return None  # the loop's default thread pool
        if self._pool is None:
            self._pool = pool(self.workers)
        return self._pool

    async def _run(self, progress: Progress, record_id: int | None, checked: Checked) -> None:
        loop = asyncio.get_running_loop()
        record = checked.record
        try:
            text = await asyncio.to_thread(record.dumps)
            starts = range(0, progress.total, PART)
            jobs = []
            for start in starts:
                stop = min(start + PART, progress.total)
                job = loop.run_in_executor(self._executor(), _part, text, start, stop, self.worlds, self.seed)
                job.add_done_callback(functools.partial(_advance, progress, stop - start))
                jobs.append(job)
            parts = await asyncio.gather(*jobs)
            decisions = [Decision.from_json(d) for part in parts for d in part]
            result = assemble(record, decisions, self.worlds, self.seed, checked.steps).to_json()
            kept = record.to_json() if record_id is None else None  # a stored match's record is in records
            await self.store.save(progress.key, record_id, self.worlds, result, kept)
            self.computed += 1
            progress.result, progress.state, progress.done = result, "done", progress.total
            self.running.pop(progress.key, None)
            self._uploads.pop(progress.key, None)
        except asyncio.CancelledError:
            self.running.pop(progress.key, None)
            self._uploads.pop(progress.key, None)
            raise
        except Exception as exc:  # a failed analysis is reported (it stays failed until asked again)
            log.exception("analysis %s failed", progress.key)
            progress.state, progress.error = "failed", str(exc) or type(exc).__name__

    def close(self) -> None:
        for executor in (self._pool, self._checks):
            if isinstance(executor, ProcessPoolExecutor):
                executor.shutdown(wait=False, cancel_futures=True)
        self._pool = self._checks = None


def _advance(progress: Progress, n: int, future: asyncio.Future[list[dict[str, Any]]]) -> None:
    if not future.cancelled() and future.exception() is None:
        progress.done = min(progress.total, progress.done + n)
