"""The order of the whole suite under ``pytest -n N --dist worksteal`` (scripts/test): the known-long tests first,
spread over the workers, so that none of them starts late and leaves one worker alone at the end.

xdist's work stealing deals the collection to its N workers in N contiguous slices, in collection order, and each
worker runs its slice from the front (an idle worker then steals the back half of the longest queue). Put every
long test at the front of the collection and they would all land in the first slice, one after another on one
worker; so each long test goes to the front of the slice of the worker with the least long work so far (longest
first), and the short tests fill the slices behind them in their usual order. Every worker computes the same
order (xdist checks that the collections are equal). A test that shares a module-scoped fixture with its module
moves with its whole module, so the fixture is still made once. Without ``-n`` the order is pytest's own.
"""

from __future__ import annotations

import itertools

import pytest

from tests.web.fuzzing import totals

#: Seconds a test (or each test whose node id starts with this; for a module that moves whole, the module) takes in
#: CI, roughly: only the long ones. Measured under CI's load (``--durations``); a guess wrong by half still orders
#: them well.
LONG = {
    "tests/web/test_protocol_stateful.py::test_protocol_stateful[individual]": 200,
    "tests/web/test_protocol_stateful.py::test_protocol_stateful[amazonense]": 100,
    "tests/web/test_tournament_sim.py::": 140,  # each database's
    "tests/web/test_openapi_fuzz.py::": 150,  # a module of many tests on one server: 68 s its longest
    "tests/bots/test_analysis.py::test_the_expert_loses_far_less_than_greedy": 99,
    "tests/test_install.py::": 60,  # its module: the bare venv (made once for its four tests), then the checks
    "tests/bench/test_bench_server.py::": 55,
    "tests/web/test_crash.py::test_kill_9_mid_hand": 50,
    "tests/web/test_cluster.py::test_three_nodes_behind_nginx": 90,  # its setup and call
    "tests/web/test_cluster.py::test_redis_restarted_empty_mid_play": 80,  # its setup and teardown
    "tests/web/test_nodes_processes.py::test_the_tables_of_a_killed_node": 43,
}


def weight(item: pytest.Item) -> float:
    """The seconds ``item`` is known to take (0: not a long test)."""
    return max((s for prefix, s in LONG.items() if item.nodeid.startswith(prefix)), default=0)


def module_bound(item: pytest.Item) -> bool:
    """Does ``item`` use a fixture made once per module (or class), which moving it alone would make twice?"""
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else []
    return any(d[-1].scope in ("module", "class", "package") for d in defs if d)


def spread(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` reordered so that each of xdist's ``workers`` slices starts with its share of the long tests."""
    units: dict[str, list[pytest.Item]] = {}  # a test, or a module whose tests share a module's fixture
    for item in items:
        key = item.nodeid.split("::")[0] if module_bound(item) else item.nodeid
        units.setdefault(key, []).append(item)
    cost = {id(u): max(map(weight, u)) for u in units.values()}
    long = sorted((u for u in units.values() if cost[id(u)] > 0), key=lambda u: -cost[id(u)])
    slices: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for unit in long:  # longest first, each to the least loaded slice
        k = loads.index(min(loads))
        slices[k] += unit
        loads[k] += cost[id(unit)]
    taken = {id(i) for s in slices for i in s}
    short = iter([i for i in items if id(i) not in taken])
    # xdist's first deal: to the k-th of the idle workers, len(pending) // (workers - k) of what is left.
    left, out = len(items), []
    for k, s in enumerate(slices):
        size = left // (workers - k)
        s += itertools.islice(short, max(0, size - len(s)))
        out += s
        left -= len(s)
    out += list(short)
    assert sorted(map(id, out)) == sorted(map(id, items))
    return out


@pytest.hookimpl(trylast=True)  # after ``-m``/``-k`` deselected theirs: the slices are of what runs
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers > 1:
        items[:] = spread(items, workers)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """The inputs the fuzzing tests sent, summed over the workers (tests/web/fuzzing.py): here, in the conftest
    xdist's controller loads (a hook of tests/web/conftest.py is never called there)."""
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is None or hasattr(config, "workerinput"):
        return
    counts = totals(factory.getbasetemp())
    if not counts:
        return
    by_kind: dict[str, int] = {}
    for c in counts:
        by_kind[str(c["kind"])] = by_kind.get(str(c["kind"]), 0) + int(str(c["count"]))
    seconds = sum(float(str(c["seconds"])) for c in counts)
    said = ", ".join(f"{n:,} {kind}" for kind, n in sorted(by_kind.items()))
    total = sum(by_kind.values())
    terminalreporter.write_line(f"fuzzing: {total:,} inputs sent ({said}) by {len(counts)} tests in {seconds:.0f} s")
