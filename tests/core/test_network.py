"""A network failure named as one (issue 46, K-65): git's words for an unreachable host, and the API client's."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import APIConnectionError, APITimeoutError
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.network import unreachable


@pytest.mark.parametrize(
    "said",
    [
        "fatal: unable to access 'https://github.com/acme/app/': Could not resolve host: github.com",
        "fatal: unable to access 'https://github.com/acme/app/': Failed to connect to github.com port 443",
        "ssh: connect to host github.com port 22: Connection timed out",
        "ssh: connect to host github.com port 22: Network is unreachable",
        "fatal: unable to access 'https://github.com/acme/app/': Proxy CONNECT aborted",
    ],
)
def test_gits_words_for_an_unreachable_host_are_a_network_failure_k_65(said: str) -> None:
    assert unreachable(said)


@pytest.mark.parametrize(
    "said",
    [
        "git@github.com: Permission denied (publickey).",
        "fatal: Authentication failed for 'https://github.com/acme/app/'",
        "remote: Repository not found.",
    ],
)
def test_a_refusal_by_a_reachable_host_stays_a_question_of_access_k_65(said: str) -> None:
    assert not unreachable(said)


@pytest.mark.parametrize("error", [APIConnectionError, APITimeoutError])
def test_cursor_unreachable_is_network_not_upstream_and_says_nothing_was_sent_k_65(
    error: type[APIConnectionError],
) -> None:
    """K-65: a request that never reached Cursor is NETWORK (a later read is tried again, `watch.PASSING`),
    says nothing was sent, and sends nobody after the API key."""
    failure = failures.from_api_error(error("Could not connect to api.cursor.com: [Errno 111] Connection refused"))
    assert failure.code == "NETWORK"
    assert "nothing was sent" in failure.message and "network" in failure.message
    assert "API key" not in failure.message and "CURSOR_API_KEY" not in failure.message
