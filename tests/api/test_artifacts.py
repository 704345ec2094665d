"""Presigned artifact URLs: checked, fetched without the Cursor key, no redirects, size capped (docs/reliability.md
§2.8)."""

from __future__ import annotations

import socket

import httpx2
import pytest

from cursor_cloud_agents.api import (
    APIConnectionError,
    APIStatusError,
    ArtifactURLRefusedError,
    CursorClient,
    ResponseTooLargeError,
)
from tests.api.helpers import KEY, Recorder, json_response

S3_HOST = "cloud-agent-artifacts.s3.us-east-1.amazonaws.com"
S3 = f"https://{S3_HOST}/a/b.png?X-Amz-Signature=abc&X-Amz-Credential=zzz"
S3_ADDRESS = "52.216.1.1"


class FakeDNS:
    """An injected resolver: answers from a queue (the last answer repeats) and counts the questions."""

    def __init__(self, *answers: list[str]) -> None:
        self.answers = list(answers) or [[S3_ADDRESS]]
        self.questions: list[tuple[str, int]] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.questions.append((host, port))
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def _client(
    artifacts: Recorder, *, dns: FakeDNS | None = None, base: str = "https://api.cursor.com", **kwargs: object
) -> CursorClient:
    api = Recorder(json_response(500, {}))
    return CursorClient(
        base,
        KEY,
        transport=httpx2.MockTransport(api),
        artifact_transport=httpx2.MockTransport(artifacts),
        artifact_resolver=dns or FakeDNS(),
        **kwargs,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType] -- test-only pass-through
    )


@pytest.mark.anyio
async def test_artifact_is_fetched_without_the_cursor_key() -> None:
    """docs/reliability.md R-07 / docs/api-contract.md §3.14: no Authorization (or cookie) goes to the artifact host."""
    artifacts = Recorder(httpx2.Response(200, content=b"PNG..."))
    async with _client(artifacts) as client:
        assert await client.download_artifact(S3, max_bytes=1024) == b"PNG..."
    request = artifacts.last
    assert "authorization" not in request.headers
    assert "cookie" not in request.headers
    assert KEY not in str(request.headers)
    assert str(request.url) == S3.replace(S3_HOST, S3_ADDRESS)
    assert request.headers["host"] == S3_HOST


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url",
    [
        "http://cloud-agent-artifacts.s3.amazonaws.com/a",  # R-01 not https
        "file:///etc/passwd",
        "ftp://x.amazonaws.com/a",
        "data:text/plain,hi",
        "https://evil.example/a",  # R-02 host not allowed
        "https://evilamazonaws.com/a",  # a suffix without its label boundary
        "https://amazonaws.com.evil.example/a",
        "https://user:pw@x.s3.amazonaws.com/a",  # credentials
        "https://x.s3.amazonaws.com:8443/a",  # odd port
        "https://127.0.0.1/a",  # loopback not enabled
        "http://localhost:9000/a",
        "https://2130706433/a",  # R-04 odd IP literal
        "https://[::1]/a",
    ],
)
async def test_artifact_urls_outside_the_policy_are_refused_before_any_connection(url: str) -> None:
    """docs/reliability.md R-01, R-02, R-04: refused, 0 connects; the message never carries the query string."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts) as client:
        with pytest.raises(ArtifactURLRefusedError) as caught:
            await client.download_artifact(url + "?X-Amz-Signature=secret", max_bytes=10)
    assert artifacts.requests == []
    assert "secret" not in str(caught.value)


@pytest.mark.anyio
async def test_loopback_artifacts_only_when_the_constructor_says_so() -> None:
    """Tests and the simulator serve artifacts on 127.0.0.1, at the API base; only with allow_loopback_artifacts."""
    artifacts = Recorder(httpx2.Response(200, content=b"hello"))
    async with _client(artifacts, base="http://127.0.0.1:8123", allow_loopback_artifacts=True) as client:
        assert await client.download_artifact("http://127.0.0.1:8123/artifacts/a.txt", max_bytes=10) == b"hello"


@pytest.mark.anyio
async def test_configured_host_suffixes_replace_the_default() -> None:
    """CURSOR_MCP_ARTIFACT_HOSTS: the allowlist is a setting."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts, artifact_host_suffixes=("files.example.org",)) as client:
        assert await client.download_artifact("https://cdn.files.example.org/a", max_bytes=10) == b"x"
        with pytest.raises(ArtifactURLRefusedError):
            await client.download_artifact(S3, max_bytes=10)


@pytest.mark.anyio
async def test_an_artifact_redirect_is_refused() -> None:
    """docs/reliability.md R-06: a redirect is not followed."""
    artifacts = Recorder(httpx2.Response(302, headers={"location": "http://169.254.169.254/latest/meta-data"}))
    async with _client(artifacts) as client:
        with pytest.raises(ArtifactURLRefusedError, match="redirect"):
            await client.download_artifact(S3, max_bytes=10)
    assert len(artifacts.requests) == 1


@pytest.mark.anyio
async def test_an_artifact_over_its_cap_is_refused() -> None:
    """docs/reliability.md R-08: declared or actual size over the cap stops the read."""
    artifacts = Recorder(httpx2.Response(200, content=b"x" * 2000))
    async with _client(artifacts) as client:
        with pytest.raises(ResponseTooLargeError) as caught:
            await client.download_artifact(S3, max_bytes=1000)
    assert caught.value.limit == 1000


@pytest.mark.anyio
async def test_an_expired_url_is_a_status_error() -> None:
    """S3 answers 403 once the 15-minute URL expired."""
    artifacts = Recorder(httpx2.Response(403, content=b"<Error><Code>AccessDenied</Code></Error>"))
    async with _client(artifacts) as client:
        with pytest.raises(APIStatusError) as caught:
            await client.download_artifact(S3, max_bytes=1000)
    assert caught.value.status_code == 403
    assert "Signature" not in str(caught.value)


PRIVATE_ANSWERS = [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.9",
    "192.168.1.1",
    "169.254.169.254",
    "0.0.0.0",
    "::1",
    "fc00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "224.0.0.1",
    "100.64.0.1",
]


@pytest.mark.anyio
@pytest.mark.parametrize("address", PRIVATE_ANSWERS)
async def test_an_allowed_host_resolving_to_a_private_address_is_refused_before_any_connection(address: str) -> None:
    """docs/reliability.md R-03 (issue 13): the name is on the allow-list but resolves to loopback, private,
    link-local (metadata), multicast, reserved or IPv4-mapped space: refused after resolution, 0 connects."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts, dns=FakeDNS([S3_ADDRESS, address])) as client:
        with pytest.raises(ArtifactURLRefusedError, match="resolves to a private") as caught:
            await client.download_artifact(S3, max_bytes=10)
        with pytest.raises(ArtifactURLRefusedError):
            await client.check_artifact_url(S3)  # what url_only hands on is judged the same way
    assert artifacts.requests == []
    assert "Signature" not in str(caught.value)


@pytest.mark.anyio
async def test_the_download_connects_to_the_address_checked_and_never_resolves_again() -> None:
    """docs/reliability.md R-05 (DNS rebinding): the first answer is public, a second would be 127.0.0.1; the host is
    resolved once and the connection goes to the checked address, naming the host in Host and TLS (SNI)."""
    artifacts = Recorder(httpx2.Response(200, content=b"PNG"))
    dns = FakeDNS([S3_ADDRESS], ["127.0.0.1"])
    async with _client(artifacts, dns=dns) as client:
        assert await client.download_artifact(S3, max_bytes=10) == b"PNG"
    assert dns.questions == [(S3_HOST, 443)]
    request = artifacts.last
    assert request.url.host == S3_ADDRESS
    assert request.headers["host"] == S3_HOST
    assert request.extensions["sni_hostname"] == S3_HOST


@pytest.mark.anyio
async def test_an_ipv6_answer_is_connected_to_in_brackets() -> None:
    """R-05: a public IPv6 answer is pinned too (the URL carries it as a bracketed literal)."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts, dns=FakeDNS(["2600:1f18::1"])) as client:
        await client.download_artifact(S3, max_bytes=10)
    assert artifacts.last.url.host == "2600:1f18::1"
    assert artifacts.last.url.netloc == b"[2600:1f18::1]"


@pytest.mark.anyio
async def test_a_host_that_does_not_resolve_is_a_connection_error_with_nothing_fetched() -> None:
    """An unknown name is APIConnectionError (nothing was sent), never INTERNAL."""

    async def no_such_host(host: str, port: int) -> list[str]:
        del host, port
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with CursorClient(
        "https://api.cursor.com",
        KEY,
        transport=httpx2.MockTransport(Recorder(json_response(500, {}))),
        artifact_transport=httpx2.MockTransport(artifacts),
        artifact_resolver=no_such_host,
    ) as client:
        with pytest.raises(APIConnectionError, match="could not be resolved"):
            await client.download_artifact(S3, max_bytes=10)
    assert artifacts.requests == []


@pytest.mark.anyio
async def test_a_loopback_answer_passes_only_when_loopback_artifacts_are_allowed() -> None:
    """R-03's one exception, the simulator: `localhost` resolving to 127.0.0.1 with allow_loopback_artifacts."""
    artifacts = Recorder(httpx2.Response(200, content=b"sim"))
    async with _client(
        artifacts, dns=FakeDNS(["127.0.0.1"]), base="http://localhost:8123", allow_loopback_artifacts=True
    ) as client:
        assert await client.download_artifact("http://localhost:8123/sim/a.txt", max_bytes=10) == b"sim"
    assert str(artifacts.last.url) == "http://127.0.0.1:8123/sim/a.txt"
    assert artifacts.last.headers["host"] == "localhost:8123"


SIMULATOR = "http://127.0.0.1:8123"


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8124/sim/a.txt",  # another port on the same address
        "http://127.0.0.2:8123/sim/a.txt",  # another loopback address
        "http://localhost:8123/sim/a.txt",  # another name for it
        "https://127.0.0.1:8123/sim/a.txt",  # another scheme
        "http://[::1]:8123/sim/a.txt",
        "http://127.0.0.1/sim/a.txt",  # the default port
    ],
)
async def test_the_loopback_exemption_is_exactly_the_api_bases_origin(url: str) -> None:
    """R-10 (issue 23): with the simulator's base, every loopback address and port was allowed for downloads; now
    only its own scheme, host and port, refused before any connection."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts, base=SIMULATOR, allow_loopback_artifacts=True) as client:
        assert await client.download_artifact(f"{SIMULATOR}/sim/a.txt", max_bytes=10) == b"x"
        with pytest.raises(ArtifactURLRefusedError):
            await client.download_artifact(url, max_bytes=10)
    assert len(artifacts.requests) == 1


@pytest.mark.anyio
async def test_an_allowed_host_resolving_to_loopback_stays_refused_beside_the_simulator() -> None:
    """R-11 (issue 23): the exemption let any host's loopback answer through: an allowed S3 name resolving to
    127.0.0.1 was fetched when the API base was the simulator. Only the base's own origin may be on loopback."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts, dns=FakeDNS(["127.0.0.1"]), base=SIMULATOR, allow_loopback_artifacts=True) as client:
        with pytest.raises(ArtifactURLRefusedError, match="loopback"):
            await client.download_artifact(S3, max_bytes=10)
    assert artifacts.requests == []


@pytest.mark.anyio
async def test_no_loopback_download_with_a_base_that_is_not_on_loopback() -> None:
    """R-10 (issue 23): allow_loopback_artifacts exempts the base's own origin; a public base exempts nothing."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts, allow_loopback_artifacts=True) as client:
        with pytest.raises(ArtifactURLRefusedError):
            await client.download_artifact("http://127.0.0.1:8123/sim/a.txt", max_bytes=10)
    assert artifacts.requests == []
