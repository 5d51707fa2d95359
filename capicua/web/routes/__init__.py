"""The HTTP API, one router a concern: identity, tables, records, variants."""
