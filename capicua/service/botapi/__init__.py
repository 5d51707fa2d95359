"""The bot API, on the model of lichess's: bot accounts played by outside programs over HTTP.

- ``tokens.py``: personal API tokens (only their digests are stored; revocable);
- the rate limits of token callers are the platform's (:mod:`capicua.service.limits`, `bot-…` rules);
- ``hub.py``: each bot account's event stream (invitations, its tables starting and ending), the
  invitations people send to bot accounts, and a seat's stream of one table (its view, then its events).

The HTTP side is ``capicua/web/routes/botapi.py``; the reference client is ``capicua bot run``
(``capicua/cli/bot.py``); ``docs/bots.md`` explains it all with a complete example.
"""
