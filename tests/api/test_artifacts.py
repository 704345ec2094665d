"""Presigned artifact URLs: checked, fetched without the Cursor key, no redirects, size capped (RELIABILITY §2.8)."""

from __future__ import annotations

import httpx2
import pytest

from cursor_cloud_agents.api import (
    APIStatusError,
    ArtifactURLRefusedError,
    CursorClient,
    ResponseTooLargeError,
)
from tests.api.helpers import KEY, Recorder, json_response

S3 = "https://cloud-agent-artifacts.s3.us-east-1.amazonaws.com/a/b.png?X-Amz-Signature=abc&X-Amz-Credential=zzz"


def _client(artifacts: Recorder, **kwargs: object) -> CursorClient:
    api = Recorder(json_response(500, {}))
    return CursorClient(
        "https://api.cursor.com",
        KEY,
        transport=httpx2.MockTransport(api),
        artifact_transport=httpx2.MockTransport(artifacts),
        **kwargs,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType] -- test-only pass-through
    )


@pytest.mark.anyio
async def test_artifact_is_fetched_without_the_cursor_key() -> None:
    """RELIABILITY R-07 / CONTRACT.md §3.14: no Authorization (or cookie) goes to the artifact host."""
    artifacts = Recorder(httpx2.Response(200, content=b"PNG..."))
    async with _client(artifacts) as client:
        assert await client.download_artifact(S3, max_bytes=1024) == b"PNG..."
    request = artifacts.last
    assert "authorization" not in request.headers
    assert "cookie" not in request.headers
    assert KEY not in str(request.headers)
    assert str(request.url) == S3


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
    """RELIABILITY R-01, R-02, R-04: refused, 0 connects; the message never carries the query string."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts) as client:
        with pytest.raises(ArtifactURLRefusedError) as caught:
            await client.download_artifact(url + "?X-Amz-Signature=secret", max_bytes=10)
    assert artifacts.requests == []
    assert "secret" not in str(caught.value)


@pytest.mark.anyio
async def test_loopback_artifacts_only_when_the_constructor_says_so() -> None:
    """Tests and the simulator serve artifacts on 127.0.0.1; only with allow_loopback_artifacts."""
    artifacts = Recorder(httpx2.Response(200, content=b"hello"))
    async with _client(artifacts, allow_loopback_artifacts=True) as client:
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
    """RELIABILITY R-06: a redirect is not followed."""
    artifacts = Recorder(httpx2.Response(302, headers={"location": "http://169.254.169.254/latest/meta-data"}))
    async with _client(artifacts) as client:
        with pytest.raises(ArtifactURLRefusedError, match="redirect"):
            await client.download_artifact(S3, max_bytes=10)
    assert len(artifacts.requests) == 1


@pytest.mark.anyio
async def test_an_artifact_over_its_cap_is_refused() -> None:
    """RELIABILITY R-08: declared or actual size over the cap stops the read."""
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
