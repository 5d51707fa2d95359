"""capicua.bots (see docs/architecture.md)."""
