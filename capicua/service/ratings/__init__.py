"""Ratings and rankings (D1–D5): the models (``model.py``: openskill for partnerships, the D3 bonus),
the ranking points of individual play (``points.py``, B7/B8), the weekly ranking and its medals
(``weekly.py``, D4), and the service that listens for a match's end and answers the leaderboards
(``service.py``). docs/ratings.md explains the choices and publishes the numbers."""
