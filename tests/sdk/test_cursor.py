"""`Cursor` and `AsyncCursor` (`sdk/_cursor.py`, `sdk/_sync.py`): Cursor's static namespace, one key a connection."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.sdk import (
    Agent,
    AsyncCursor,
    AuthenticationError,
    BadRequestError,
    Cursor,
    close_default_client,
)
from tests.sdk.conftest import ProgramEnvironment
from tests.sdk.mockapi import KEY, MODELS, mock_api


def test_the_static_namespace_reads_through_the_default_connection_or_client_k_52(
    program_environment: ProgramEnvironment,
) -> None:
    """K-52: `Cursor.models.list()`, `Cursor.me()` (Cursor's SDK's static calls) read through the default connection
    or `client=`; an open connection answers `cursor.models()` and `cursor.models.list()` the same."""
    with mock_api() as api:
        program_environment(api.base_url)
        assert [model.id for model in Cursor.models.list()] == list(MODELS)
        assert Cursor.me().api_key_name == "mock key"
        with Cursor() as cursor:
            assert cursor.models() == cursor.models.list() == Cursor.models.list(client=cursor)
            assert cursor.me() == Cursor.me(client=cursor)
        close_default_client()


@pytest.mark.anyio
async def test_the_async_namespace_needs_its_client_as_cursors_does_k_52(
    program_environment: ProgramEnvironment,
) -> None:
    with mock_api() as api:
        program_environment(api.base_url)
        async with AsyncCursor() as cursor:
            assert [model.id for model in await AsyncCursor.models.list(client=cursor)] == list(MODELS)
            assert await cursor.models() == await cursor.models.list()
            assert (await AsyncCursor.me(client=cursor)).api_key_name == "mock key"
        with pytest.raises(BadRequestError, match=r"AsyncCursor.models.list\(client=...\) needs client="):
            await AsyncCursor.models.list()


def test_an_api_key_passed_per_call_is_its_own_connection_and_never_mixed_with_another_k_54(
    program_environment: ProgramEnvironment,
) -> None:
    """K-54: Cursor's SDK takes `api_key` per call: without `client=` the call uses a connection of that key (a
    wrong key is refused by Cursor as `AuthenticationError`); with `client=`, a key other than the connection's is
    refused before anything is sent (a connection holds one key)."""
    with mock_api() as api:
        program_environment(api.base_url)
        assert Agent.create({"api_key": KEY}).client is Agent.create(api_key=KEY).client
        with pytest.raises(AuthenticationError, match=r"Cursor\(api_key=...\)"):
            Cursor.me(api_key="key_wrong_0123456789abcdef")
        with Cursor() as cursor:
            before = len(api.requests)
            with pytest.raises(BadRequestError, match="a connection holds one key"):
                Agent.create({"api_key": "key_other_0123456789abcdef"}, client=cursor)
            assert len(api.requests) == before
        close_default_client()
