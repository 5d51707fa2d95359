"""The lobby tells the truth (issue 22, item 9), through the HTTP API: a new table counts down to its start once
full unless told not to, how many people are online, and what quick play offers for each game."""

from __future__ import annotations

from tests.web.helpers import Harness, create_table, join


def test_a_new_table_starts_by_itself_once_full_unless_its_creator_says_not(h: Harness) -> None:
    ana = h.guest("Ana")
    counting = create_table(h.client, ana, variant="dominousa")
    assert counting["autostart"] == 10 and counting["starts_at"] is None
    waiting = create_table(h.client, ana, variant="dominousa", autostart=False)
    assert waiting["autostart"] is None
    for k, name in enumerate(("Ana", "Bia", "Caio", "Duda")):
        who = ana if k == 0 else h.guest(name)
        join(h.client, who, counting["id"], k)
        join(h.client, who, waiting["id"], k)
    full = h.client.get(f"/api/tables/{counting['id']}").json()
    assert full["status"] == "open" and full["starts_at"] is not None  # cheia, counting down
    assert h.client.get(f"/api/tables/{waiting['id']}").json()["starts_at"] is None
    lobby = {t["id"]: t for t in h.client.get("/api/tables").json()}
    assert lobby[counting["id"]]["starts_at"] == full["starts_at"]
    assert not any(s["empty"] for s in lobby[counting["id"]]["seats"])


def test_the_lobby_says_how_many_people_are_online(h: Harness) -> None:
    ana, bia = h.guest("Ana"), h.guest("Bia")
    first = h.client.get("/api/online", headers=ana.headers).json()["people"]
    assert first >= 1
    assert h.client.get("/api/online", headers=bia.headers).json()["people"] == first + 1
    assert h.client.get("/api/online", headers=ana.headers).json()["people"] == first + 1  # each once
    assert h.client.get("/api/online").json()["people"] == first + 1  # nobody asking: nobody added


def test_quick_play_offers_two_players_with_the_morto_and_three_beside_it(h: Harness) -> None:
    games = {g["name"]: g for g in h.client.get("/api/variants").json()}
    assert games["individual"]["quick_players"] == [2, 3]
    assert games["amazonense"]["quick_players"] == [4] and games["dominousa"]["quick_players"] == [4]
    ana = h.guest("Ana")
    for n in (2, 3):
        table = create_table(h.client, ana, variant="individual", players=n, sit=True)
        assert table["players"] == n and len(table["seats"]) == n
