"""Which hosts and addresses we connect to: the loopback exception (base URL, artifacts) and the public-address rule.

The artifact downloads' loopback exception is one origin, the API base's own when it is on loopback (the
simulator serves its downloads there): `loopback_origin` names it, and nothing else on loopback is allowed.

Stdlib only: both the API client and the configuration judge hosts with these answers, and nothing else does.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

Origin = tuple[str, str, int]
"""Scheme, host (lowercase, without brackets) and port of a URL."""


def is_loopback_host(host: str) -> bool:
    """Whether `host` is `localhost` or a loopback address (any of 127.0.0.0/8, ::1; brackets allowed)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def origin_of(url: str) -> Origin | None:
    """The scheme, host and port of `url` (the port by its scheme when none is written), or None when unreadable."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host:
        return None
    return scheme, host, port if port is not None else (443 if scheme == "https" else 80)


def loopback_origin(base_url: str) -> Origin | None:
    """The API base's origin when its host is loopback (the simulator), else None: the only loopback place an
    artifact download may go."""
    origin = origin_of(base_url)
    return origin if origin is not None and is_loopback_host(origin[1]) else None


def is_public_address(address: str, *, allow_loopback: bool = False) -> bool:
    """Whether a resolved address may be connected to for a URL that came from a remote party (SSRF).

    Refused: private, loopback (unless `allow_loopback`, for the simulator), link-local (the cloud
    metadata service at 169.254.169.254), multicast, reserved, unspecified and shared (100.64/10)
    addresses, also when wrapped in IPv6 (`::ffff:127.0.0.1`, 6to4, Teredo). Unreadable text is refused.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return all(_public(inner, allow_loopback) for inner in _embedded(ip))


def _embedded(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """The address and every IPv4 address an IPv6 address carries (a wrapper can route to it)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return [ip]
    inner: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [ip]
    if ip.ipv4_mapped is not None:
        inner = [ip.ipv4_mapped]  # ::ffff:a.b.c.d is a.b.c.d on a dual-stack socket
    if ip.sixtofour is not None:
        inner.append(ip.sixtofour)
    if ip.teredo is not None:
        inner.extend(ip.teredo)
    return inner


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, allow_loopback: bool) -> bool:
    if ip.is_loopback:
        return allow_loopback
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_link_local or ip.is_unspecified)
