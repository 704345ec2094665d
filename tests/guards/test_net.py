"""Where we connect (`guards/net.py`): loopback named as such, no URL from a remote party reaching a private place."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.guards.net import is_loopback_host, is_public_address, loopback_origin, origin_of


@pytest.mark.parametrize(
    ("host", "loopback"), [("localhost", True), ("127.0.0.9", True), ("[::1]", True), ("example.com", False)]
)
def test_loopback_hosts_are_localhost_and_the_loopback_ranges(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_an_origin_has_its_default_port_and_only_http_or_https() -> None:
    assert origin_of("https://API.cursor.com/v1") == ("https", "api.cursor.com", 443)
    assert origin_of("http://127.0.0.1:8123/x") == ("http", "127.0.0.1", 8123)
    assert origin_of("file:///etc/passwd") is None and origin_of("http://h:notaport/") is None
    assert loopback_origin("http://127.0.0.1:8123") == ("http", "127.0.0.1", 8123)
    assert loopback_origin("https://api.cursor.com") is None


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "10.0.0.1", "169.254.169.254", "100.64.0.1", "::ffff:127.0.0.1", "0.0.0.0", "not an ip"]
)
def test_a_private_loopback_link_local_or_wrapped_address_is_refused(address: str) -> None:
    assert not is_public_address(address)


def test_a_public_address_passes_and_loopback_only_when_allowed() -> None:
    assert is_public_address("93.184.216.34")
    assert is_public_address("127.0.0.1", allow_loopback=True)
