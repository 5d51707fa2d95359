"""Who is online on one node (issue 22, item 9): connected now, or seen in the last ``RECENT`` seconds."""

from __future__ import annotations

from capicua.service.identity import Identity
from capicua.service.presence import RECENT, Presence

ANA, BIA = Identity("g:ana", "Ana"), Identity("g:bia", "Bia")
BOT = Identity("a:bot", "Boto", guest=False, bot=True)


def test_people_are_online_while_connected_or_lately_seen_and_bots_are_not_people() -> None:
    now = [100.0]
    presence = Presence(lambda: now[0])
    presence.connected(ANA)
    presence.connected(ANA)  # two tabs
    presence.seen(BIA)
    presence.connected(BOT)
    presence.seen(None)
    assert presence.here() == [ANA.id, BIA.id]
    now[0] += RECENT + 1
    assert presence.here() == [ANA.id]  # Bia asked nothing since; Ana is connected
    presence.disconnected(ANA)
    assert presence.here() == [ANA.id]  # one tab still open
    presence.disconnected(ANA)
    assert presence.here() == [ANA.id]  # gone a moment ago: a reload reconnects
    now[0] += RECENT + 1
    assert presence.here() == []
