"""capicua.service (see docs/architecture.md)."""
