"""Tournaments of pairs (C10): the Swiss system's standings and pairings as pure functions (``swiss.py``);
the service that runs a tournament's rounds on the platform's tables builds on them."""
