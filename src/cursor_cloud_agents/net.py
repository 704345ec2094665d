"""Whether a host names this machine: the one answer for every loopback exception (base URL, artifacts)."""

from __future__ import annotations

import ipaddress


def is_loopback_host(host: str) -> bool:
    """Whether `host` is `localhost` or a loopback address (any of 127.0.0.0/8, ::1; brackets allowed)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
