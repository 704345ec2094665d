"""The api package's boundaries: its imports, its public names, its memory and connection bounds."""

from __future__ import annotations

import ast
import gc
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx2
import pytest

import cursor_cloud_agents.api as api
from cursor_cloud_agents.api import ResponseTooLargeError
from tests.api.helpers import AGENT, KEY, CountingMe, json_response, make_client

API_DIR = Path(api.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_api_never_imports_mcp_server_or_simulator() -> None:
    """docs/architecture.md layers: `api` could be published on its own."""
    for path in API_DIR.rglob("*.py"):
        for name in _imports(path):
            assert name.split(".")[0] != "mcp", path
            assert not name.startswith(("cursor_cloud_agents.server", "cursor_cloud_agents.simulator")), path


def test_httpx2_is_imported_by_exactly_one_module_and_httpx_by_none() -> None:
    """docs/architecture.md dependencies: one HTTP stack, in `api/_http.py`."""
    importers = {
        path.name for path in API_DIR.rglob("*.py") if any(n.split(".")[0] == "httpx2" for n in _imports(path))
    }
    assert importers == {"_http.py"}
    assert not any("httpx" in {n.split(".")[0] for n in _imports(path)} for path in API_DIR.rglob("*.py"))


def test_api_never_reads_the_environment() -> None:
    """docs/architecture.md: only config.py reads os.environ; the client takes explicit arguments."""
    for path in API_DIR.rglob("*.py"):
        source = path.read_text()
        assert "os.environ" not in source and "getenv" not in source, path


def test_all_lists_exactly_the_public_names() -> None:
    """docs/architecture.md §6.5: a deliberate, tested public surface."""
    assert len(api.__all__) == len(set(api.__all__))
    for name in api.__all__:
        assert hasattr(api, name), name
    public = {name for name in vars(api) if not name.startswith("_")}
    modules = {
        "activity",
        "client",
        "ending",
        "deadline",
        "errors",
        "events",
        "ids",
        "models",
        "record",
        "stream",
        "text",
        "times",
        "walk",
    }
    assert public - modules == set(api.__all__)


def test_modules_stay_small() -> None:
    """docs/architecture.md §6.1: modules ≤ ~400 lines."""
    for path in API_DIR.rglob("*.py"):
        assert len(path.read_text().splitlines()) <= 420, path


@pytest.mark.anyio
async def test_a_100_mib_json_answer_is_aborted_at_the_cap_with_bounded_memory() -> None:
    """docs/reliability.md F-27: 100 MiB on a GET stops at the 8 MiB cap; memory growth stays small."""
    sent = {"bytes": 0}

    async def endless() -> AsyncIterator[bytes]:
        piece = b"[" + b"1," * (512 * 1024)
        for _ in range(100):
            sent["bytes"] += len(piece)
            yield piece

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "application/json"}, content=endless())

    async with make_client(handler) as client:
        gc.collect()
        tracemalloc.start()
        try:
            with pytest.raises(ResponseTooLargeError):
                await client.me()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert sent["bytes"] < 12 * 1024 * 1024
    assert peak < 32 * 1024 * 1024


@pytest.mark.anyio
async def test_fifty_concurrent_calls_complete_on_one_client() -> None:
    """docs/reliability.md F-28: 50 concurrent calls on one client, no hang; in-flight requests counted."""
    in_flight = CountingMe()
    done: list[str | None] = []
    async with make_client(in_flight, requests_per_second=1000.0) as client:

        async def one() -> None:
            done.append((await client.me()).api_key_name)

        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                for _ in range(50):
                    group.start_soon(one)
    assert len(done) == 50
    assert in_flight.max >= 8  # the client itself does not serialise calls


@pytest.mark.anyio
async def test_no_request_url_ever_carries_userinfo_or_the_key() -> None:
    """docs/reliability.md SL-03: the key is the Authorization header only; a base URL with credentials is refused
    without naming them, and every URL built (ids, queries, cursors) has no userinfo and no trace of the key."""
    for base in (f"https://{KEY}:@api.cursor.com", f"https://u:{KEY}@api.cursor.com"):
        with pytest.raises(ValueError) as refused:
            api.CursorClient(base, KEY)
        assert KEY not in str(refused.value)
    seen: list[httpx2.Request] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return json_response(200, {"items": []})

    async with make_client(handler) as client:
        await client.list_agents(cursor="c@x:y/z", pr_url="https://github.com/a/b/pull/1")
        await client.list_runs(AGENT, cursor="user:pw@host")
        await client.list_environments(cursor="k")
    assert len(seen) == 3
    for request in seen:
        assert request.url.userinfo == b"" and KEY not in str(request.url)
        assert request.headers["authorization"] == f"Bearer {KEY}"
