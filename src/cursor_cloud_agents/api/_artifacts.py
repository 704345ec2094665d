"""Fetching a presigned artifact URL: policy first, then a key-less, redirect-less, size-capped GET.

The URL comes from the API, i.e. from a remote party: it is checked (https, a host under an allowed
suffix, no credentials) before anything is sent, fetched by a separate session that has no
Authorization header, and its body is read under a cap. Error messages name the host only: the query
string of a presigned URL is itself a credential.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from cursor_cloud_agents.api._http import HttpSession, SendFailure, Transport
from cursor_cloud_agents.api.errors import APIConnectionError, APIStatusError, ArtifactURLRefusedError, ReadFailedError
from cursor_cloud_agents.net import is_loopback_host


def check_artifact_url(url: str, *, host_suffixes: tuple[str, ...], allow_loopback: bool) -> str:
    """Return the URL when the policy accepts it.

    Raises:
        ArtifactURLRefusedError: wrong scheme, credentials in the URL, or a host outside the allowlist.
    """
    if any(ord(char) < 0x21 or 0x7F <= ord(char) < 0xA0 for char in url):
        raise ArtifactURLRefusedError("artifact URL refused: control characters or spaces in it")
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise ArtifactURLRefusedError("artifact URL refused: unreadable URL") from None
    if parts.username is not None or parts.password is not None:
        raise ArtifactURLRefusedError("artifact URL refused: credentials in the URL")
    if allow_loopback and is_loopback_host(host) and parts.scheme in ("http", "https"):
        return url
    if parts.scheme != "https":
        raise ArtifactURLRefusedError(f"artifact URL refused: scheme {parts.scheme[:10]!r} is not https")
    if port not in (None, 443) or not _host_allowed(host, host_suffixes):
        raise ArtifactURLRefusedError(f"artifact URL refused: host {host[:100]!r} is not an allowed artifact host")
    return url


def _host_allowed(host: str, suffixes: tuple[str, ...]) -> bool:
    for suffix in suffixes:
        bare = suffix.lower().lstrip(".")
        # ".amazonaws.com" must not accept "evilamazonaws.com": match a whole label boundary.
        if bare and (host == bare or host.endswith("." + bare)):
            return True
    return False


class ArtifactFetcher:
    """A separate session for presigned URLs: no Cursor key, no redirects, bounded bodies."""

    def __init__(self, *, transport: Transport | None, host_suffixes: tuple[str, ...], allow_loopback: bool) -> None:
        self._session = HttpSession(base_url="", headers={"Accept-Encoding": "identity"}, transport=transport)
        self._suffixes = host_suffixes
        self._allow_loopback = allow_loopback

    async def aclose(self) -> None:
        """Close the session."""
        await self._session.aclose()

    def check(self, url: str) -> str:
        """The URL when this fetcher's policy accepts it (ArtifactURLRefusedError otherwise)."""
        return check_artifact_url(url, host_suffixes=self._suffixes, allow_loopback=self._allow_loopback)

    async def fetch(self, url: str, *, max_bytes: int, timeout: float) -> bytes:
        """GET the artifact after the policy check.

        Raises:
            ArtifactURLRefusedError: the URL or a redirect was refused.
            ResponseTooLargeError: the body went past `max_bytes`.
            APIStatusError: the host answered an error status (e.g. 403 once the URL expired).
        """
        checked = self.check(url)
        host = urlsplit(checked).hostname or ""
        try:
            answer = await self._session.request("GET", checked, timeout=timeout, max_bytes=max_bytes)
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
