"""Several nodes as one platform: the router that sends what is asked of a table to the node that runs it, over
Redis (``transport.py``), and brings back the frames of its subscribers; the operations a table answers by
name (``ops.py``). docs/architecture.md, "Several nodes"."""

from capicua.service.relay.router import Router, Subscription
from capicua.service.relay.transport import RedisTransport, Unreachable

__all__ = ["RedisTransport", "Router", "Subscription", "Unreachable"]
