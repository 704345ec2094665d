"""A network failure named as one: git's and curl's words for a host that could not be reached.

A remote git cannot read for lack of a credential and a remote it cannot reach at all want different
remedies (a credential helper against the network or its proxy); answering the second as the first sends a
model or a person after keys that are fine (issue 46, K-65). Git prints the transport's own words on its last
line, which these patterns recognise; anything else stays a question of access.
"""

from __future__ import annotations

import re

_UNREACHABLE = re.compile(
    r"could not resolve (host|proxy)|temporary failure in name resolution|name or service not known"
    r"|failed to connect|couldn't connect|connection (refused|timed out|reset)|network is unreachable"
    r"|no route to host|operation timed out|timed out after|proxy connect aborted|recv failure"
    r"|ssl_connect|gnutls_handshake|the remote end hung up unexpectedly",
    re.IGNORECASE,
)

NETWORK_ADVICE = "a network failure, not a permission: check this machine's network (or its proxy), then ask again"


def unreachable(said: str) -> bool:
    """Whether a tool's error text says the host could not be reached (rather than refused)."""
    return _UNREACHABLE.search(said) is not None
