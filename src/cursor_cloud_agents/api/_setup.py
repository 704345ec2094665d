"""Construction-time checks of `CursorClient`: the base URL, the fixed headers, query parameters."""

from __future__ import annotations

from urllib.parse import urlsplit

from cursor_cloud_agents import __version__
from cursor_cloud_agents.api import text
from cursor_cloud_agents.guards.net import is_loopback_host


def check_base_url(base_url: str) -> str:
    """The base URL without its trailing slash.

    Raises:
        ValueError: not https (http only for a loopback simulator), or credentials, query or fragment.
    """
    # The key travels in a header to this URL: refuse plain http except to a loopback simulator.
    parts = urlsplit(base_url)
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("base_url must not carry credentials, a query or a fragment")
    if parts.scheme == "https" or (parts.scheme == "http" and is_loopback_host(parts.hostname or "")):
        return base_url.rstrip("/")
    raise ValueError("base_url must be https (http only for a loopback simulator)")


def fixed_headers(api_key: str | None, *, team_id: str | None = None) -> dict[str, str]:
    """The headers of every API request: the Bearer key (when configured), JSON, identity encoding, and
    `x-cursor-team-id` when a team is named (the SDK's header; docs/api-contract.md §1 Headers).

    Raises:
        ValueError: the key or team id is empty or could split a header (the message never contains the key).
    """
    headers = {
        "Accept": "application/json",
        # Identity: a compressed body could expand past its cap inside one chunk.
        "Accept-Encoding": "identity",
        "User-Agent": f"cursor-cloud-agents/{__version__}",
    }
    if api_key is not None:
        if not api_key or any(ch in api_key for ch in "\r\n\0 "):
            raise ValueError("the API key is empty or contains whitespace or control characters")
        headers["Authorization"] = f"Bearer {api_key}"
    if team_id is not None:
        if not team_id or any(ch in team_id for ch in "\r\n\0 "):
            raise ValueError("the team id is empty or contains whitespace or control characters")
        headers["x-cursor-team-id"] = team_id
    return headers


def query(**values: str | int | bool | None) -> dict[str, str]:
    """Query parameters from keyword values: None left out, booleans as `true`/`false`.

    Raises:
        ValueError: a text value is not visible ASCII (the client's cursors, URLs and ids all are): refused
            rather than escaped, so a control or bidi character never costs a request.
    """
    params: dict[str, str] = {}
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, str):
            text.token(value, f"query parameter {name}")
        params[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return params
