"""Fetching a presigned artifact URL: policy first, then a key-less, redirect-less, size-capped GET.

The URL comes from the API, i.e. from a remote party: it is checked (https, a host under an allowed
suffix, no credentials) before anything is sent; its host is resolved once and every address checked
(no private, loopback, link-local, multicast or reserved address: docs/reliability.md R-03); the one
exception is the API base's own origin (scheme, host and port) when that base is on loopback, as the
simulator's is. The connection goes to the checked address, never to a second resolution (R-05, DNS
rebinding). It is fetched by a separate session that has no Authorization header, and its body is read
under a cap. Error messages name the host only: the query string of a presigned URL is itself a credential.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit, urlunsplit

import anyio

from cursor_cloud_agents.api._http import HttpSession, SendFailure, Transport
from cursor_cloud_agents.api.deadline import RESOLVE_CAP_SECONDS
from cursor_cloud_agents.api.errors import APIConnectionError, APIStatusError, ArtifactURLRefusedError, ReadFailedError
from cursor_cloud_agents.guards.net import Origin, is_public_address, origin_of

Resolver = Callable[[str, int], Awaitable[Sequence[str]]]
"""Host and port -> the addresses it resolves to (injected in tests; the system resolver otherwise)."""

MAX_URL_CHARS = 16_384
"""Far above any presigned URL (a few KB with a session token), below the HTTP library's own limit."""


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses of `host` from the system resolver (getaddrinfo, TCP)."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


@dataclass(frozen=True, slots=True)
class VettedURL:
    """An artifact URL that passed the policy, with the one address that was checked for it."""

    url: str
    """The URL as given (what a caller hands on)."""
    host: str
    address: str
    """The address to connect to: the first answer of the one resolution, checked with all the others."""

    @property
    def target(self) -> str:
        """The URL with its host replaced by the checked address (the Host header names `host`)."""
        parts = urlsplit(self.url)
        literal = f"[{self.address}]" if ":" in self.address else self.address
        netloc = literal if parts.port is None else f"{literal}:{parts.port}"
        return urlunsplit(parts._replace(netloc=netloc))


def check_artifact_url(url: str, *, host_suffixes: tuple[str, ...], loopback: Origin | None = None) -> str:
    """Return the URL when the policy accepts it: https on an allowed host, or exactly the `loopback` origin.

    Raises:
        ArtifactURLRefusedError: wrong scheme, credentials in the URL, or a host outside the allowlist.
    """
    if any(ord(char) < 0x21 or 0x7F <= ord(char) < 0xA0 or 0xD800 <= ord(char) < 0xE000 for char in url):
        # A lone surrogate cannot be encoded to send: refused here rather than failing inside the HTTP library.
        raise ArtifactURLRefusedError("artifact URL refused: control characters, spaces or lone surrogates in it")
    if len(url) > MAX_URL_CHARS:
        raise ArtifactURLRefusedError(f"artifact URL refused: over {MAX_URL_CHARS} characters")
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise ArtifactURLRefusedError("artifact URL refused: unreadable URL") from None
    if parts.username is not None or parts.password is not None:
        raise ArtifactURLRefusedError("artifact URL refused: credentials in the URL")
    if loopback is not None and origin_of(url) == loopback:
        return url  # the simulator's own downloads: its scheme, host and port, nothing else on loopback
    if parts.scheme != "https":
        raise ArtifactURLRefusedError(f"artifact URL refused: scheme {parts.scheme[:10]!r} is not https")
    if port not in (None, 443) or not _host_allowed(host, host_suffixes):
        raise ArtifactURLRefusedError(f"artifact URL refused: host {host[:100]!r} is not an allowed artifact host")
    return url


def _host_allowed(host: str, suffixes: tuple[str, ...]) -> bool:
    for suffix in suffixes:
        bare = suffix.lower().lstrip(".")
        # ".amazonaws.com" must not accept "evilamazonaws.com": match a whole label boundary. A host that is not
        # ASCII names no bucket, and could not be said in the Host header.
        if bare and host.isascii() and (host == bare or host.endswith("." + bare)):
            return True
    return False


def _port_of(parts: SplitResult) -> int:
    return parts.port or (443 if parts.scheme == "https" else 80)


def _literal_address(host: str) -> str | None:
    """The host when it is an IP literal (no resolution then), else None."""
    try:
        return str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        return None


class ArtifactFetcher:
    """A separate session for presigned URLs: no Cursor key, no redirects, vetted addresses, bounded bodies."""

    def __init__(
        self,
        *,
        transport: Transport | None,
        host_suffixes: tuple[str, ...],
        loopback: Origin | None,
        resolver: Resolver = system_resolver,
    ) -> None:
        self._session = HttpSession(base_url="", headers={"Accept-Encoding": "identity"}, transport=transport)
        self._suffixes = host_suffixes
        self._loopback = loopback
        self._resolver = resolver

    async def aclose(self) -> None:
        """Close the session."""
        await self._session.aclose()

    def check(self, url: str) -> str:
        """The URL when this fetcher's policy accepts it (ArtifactURLRefusedError otherwise)."""
        return check_artifact_url(url, host_suffixes=self._suffixes, loopback=self._loopback)

    async def vet(self, url: str, *, timeout: float) -> VettedURL:
        """The URL with its checked address: the policy by name, then one resolution, every address checked.

        Raises:
            ArtifactURLRefusedError: the URL, or an address its host resolves to, is refused.
            APIConnectionError: the host could not be resolved; nothing was fetched.
        """
        parts = urlsplit(self.check(url))
        host = (parts.hostname or "").lower()
        literal = _literal_address(host)
        addresses = [literal] if literal is not None else await self._resolve(host, _port_of(parts), timeout)
        if not addresses:
            raise APIConnectionError(f"artifact host {host[:100]} resolves to no address; nothing was fetched")
        exempt = self._loopback is not None and origin_of(url) == self._loopback  # may resolve to loopback
        if not all(is_public_address(address, allow_loopback=exempt) for address in addresses):
            raise ArtifactURLRefusedError(
                f"artifact URL refused: host {host[:100]!r} resolves to a private, loopback, link-local, "
                "multicast or reserved address"
            )
        return VettedURL(url=url, host=host, address=addresses[0])

    async def _resolve(self, host: str, port: int, timeout: float) -> Sequence[str]:
        try:
            with anyio.fail_after(min(timeout, RESOLVE_CAP_SECONDS)):
                return await self._resolver(host, port)
        except (OSError, TimeoutError, UnicodeError):
            raise APIConnectionError(f"artifact host {host[:100]} could not be resolved; nothing was fetched") from None

    async def fetch(self, url: str, *, max_bytes: int, timeout: float) -> bytes:
        """GET the artifact after the policy check, from the address that was checked.

        Raises:
            ArtifactURLRefusedError: the URL, its address or a redirect was refused.
            ResponseTooLargeError: the body went past `max_bytes`.
            APIStatusError: the host answered an error status (e.g. 403 once the URL expired).
        """
        started = anyio.current_time()
        vetted = await self.vet(url, timeout=timeout)
        timeout -= anyio.current_time() - started
        host = vetted.host
        # The address is the one checked: naming the host in Host/TLS, the URL itself is never resolved again.
        server_name = None if _literal_address(host) is not None else host
        try:
            answer = await self._session.request(
                "GET", vetted.target, timeout=timeout, max_bytes=max_bytes, server_name=server_name
            )
        except SendFailure as failure:
            if failure.maybe_sent:
                raise ReadFailedError(f"artifact download from {host} failed: {failure}") from None
            raise APIConnectionError(f"artifact download from {host} failed: {failure}") from None
        if 300 <= answer.status < 400:
            raise ArtifactURLRefusedError(f"artifact host {host} answered a redirect (HTTP {answer.status}): refused")
        if answer.status >= 400:
            raise APIStatusError(
                f"artifact host {host} answered HTTP {answer.status} (the URL may have expired)",
                status_code=answer.status,
                request_id=answer.request_id,
            )
        return answer.body
