"""capicua.web (see docs/architecture.md)."""
