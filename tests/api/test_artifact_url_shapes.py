"""An artifact URL the client cannot send is refused by the policy, never an unexpected exception.

R-05/R-06's policy holds for URLs of any shape: refused as ARTIFACT_URL_REFUSED.
"""

from __future__ import annotations

import httpx2
import pytest

from cursor_cloud_agents.api import ArtifactURLRefusedError
from tests.api.helpers import Recorder
from tests.api.test_artifacts import S3_HOST, _client  # pyright: ignore[reportPrivateUsage]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url",
    [
        "https://bücket.s3.amazonaws.com/a.txt",  # not ASCII: no S3 bucket is named so, and no Host header can say it
        f"https://{S3_HOST}/half-\ud83d-pair.txt",  # a lone surrogate (a JSON escape can carry one)
        f"https://{S3_HOST}/{'a' * 70_000}",  # past what the HTTP library accepts
    ],
    ids=["non-ascii-host", "lone-surrogate", "overlong"],
)
async def test_an_artifact_url_that_cannot_be_sent_is_refused_before_any_connection(url: str) -> None:
    """From a hostile or broken API answer: ArtifactURLRefusedError (the ARTIFACT_URL_REFUSED answer), not a
    UnicodeEncodeError or the HTTP library's own error (which a tool answers as INTERNAL)."""
    artifacts = Recorder(httpx2.Response(200, content=b"x"))
    async with _client(artifacts) as client:
        with pytest.raises(ArtifactURLRefusedError):
            await client.download_artifact(url, max_bytes=10)
        with pytest.raises(ArtifactURLRefusedError):
            await client.check_artifact_url(url)
    assert artifacts.requests == []
