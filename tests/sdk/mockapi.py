"""An independent mock of the Cursor Cloud Agents API, written by hand for the SDK's acceptance tests.

Not the simulator: a few handlers of the standard library's HTTP server that answer the contract's shapes
(docs/api-contract.md) with fixed texts, on 127.0.0.1, in a thread of its own (so that the synchronous classes,
which block the calling thread, can reach it). Every request is recorded as `METHOD /path`.

A run is `RUNNING` when it is made and `FINISHED` from its first read on (`finish_on_read=False`: finished
when made; `reads_to_finish`: from that read on). Its stream is a `status` frame, the assistant's text in two
pieces, the `result` and `done`. A follow-up while the agent's latest run is `RUNNING` is refused as the API refuses
it (409 `agent_busy`); `GET /v1/models` lists `MODELS`.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

RESULT_TEXT = "The mock agent did the work."
ASSISTANT_PIECES = ("Working on ", "it now.")
KEY = "key_mock_0123456789abcdef"
MODELS = ("composer-2", "gpt-5")
CREATED_AT = "2026-10-06T12:00:00.000Z"


@dataclass
class MockApi:
    """The mock's state: its agents, their runs, and the requests it received."""

    finish_on_read: bool = True
    reads_to_finish: int = 1
    """The read of a run from which it is FINISHED (with `finish_on_read`)."""
    reads: dict[str, int] = field(default_factory=dict[str, int])
    requests: list[str] = field(default_factory=list[str])
    agents: dict[str, dict[str, Any]] = field(default_factory=dict[str, dict[str, Any]])
    runs: dict[str, dict[str, Any]] = field(default_factory=dict[str, dict[str, Any]])
    base_url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, line: str) -> int:
        """How many requests were `line` (`POST /v1/agents`), or started with it when it ends with `*`."""
        if line.endswith("*"):
            return sum(1 for seen in self.requests if seen.startswith(line[:-1]))
        return self.requests.count(line)

    def new_run(self, agent_id: str) -> dict[str, Any]:
        run_id = f"run-{uuid.uuid4()}"
        run = {
            "id": run_id,
            "agentId": agent_id,
            "status": "FINISHED" if not self.finish_on_read else "RUNNING",
            "createdAt": CREATED_AT,
        }
        if not self.finish_on_read:
            run |= {"result": RESULT_TEXT, "durationMs": 1234}
        self.runs[run_id] = run
        self.agents[agent_id]["latestRunId"] = run_id
        return run

    def read_run(self, run_id: str) -> dict[str, Any]:
        run = self.runs[run_id]
        self.reads[run_id] = self.reads.get(run_id, 0) + 1
        if self.reads[run_id] >= self.reads_to_finish:
            run |= {"status": "FINISHED", "result": RESULT_TEXT, "durationMs": 1234}
        return run

    def busy(self, agent: dict[str, Any]) -> bool:
        """Whether the agent's latest run is still running (a follow-up is then refused)."""
        latest = self.runs.get(agent.get("latestRunId") or "")
        return latest is not None and latest["status"] == "RUNNING"


def _agent(agent_id: str, name: str | None) -> dict[str, Any]:
    return {
        "id": agent_id,
        "name": name or "Mock agent",
        "status": "ACTIVE",
        "createdAt": CREATED_AT,
        "updatedAt": CREATED_AT,
        "url": f"https://cursor.com/agents?id={agent_id}",
        "workOnCurrentBranch": False,
    }


def _frame(event: str, data: dict[str, Any], event_id: str | None) -> bytes:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _stream_body(run_id: str) -> bytes:
    """A whole run's stream: the leading status, the assistant's text in pieces, the result and the end."""
    frames = [_frame("status", {"runId": run_id, "status": "RUNNING"}, None)]
    frames += [_frame("assistant", {"text": piece}, f"1791000000000-{n}") for n, piece in enumerate(ASSISTANT_PIECES)]
    result = {"runId": run_id, "status": "FINISHED", "text": RESULT_TEXT}
    frames += [_frame("result", result, "1791000001000-0"), _frame("done", {}, "1791000001000-0")]
    return b"".join(frames)


class _Handler(BaseHTTPRequestHandler):
    """Answers one request from the mock's state (`api`, set on a subclass per mock)."""

    api: MockApi

    def log_message(self, format: str, *args: Any) -> None:
        del format, args  # quiet: the test reads `api.requests`

    def _answer(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length)) if length else {}

    def _route(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        with self.api.lock:
            self.api.requests.append(f"{method} {path}")
        if self.headers.get("Authorization") != f"Bearer {KEY}":
            self._answer(401, {"error": {"code": "unauthorized", "message": "bad key"}})
            return
        parts = path.strip("/").split("/")
        with self.api.lock:
            answer = _dispatch(self.api, method, parts, self._body() if method == "POST" else None)
        if isinstance(answer, str):
            self._stream(parts[5])
        elif answer is None:
            self._answer(404, {"error": {"code": "not_found", "message": "no such thing"}})
        else:
            self._answer(answer[0], answer[1])

    def _stream(self, run_id: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(_stream_body(run_id))
        self.close_connection = True

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")


def _dispatch(api: MockApi, method: str, parts: list[str], body: Any) -> tuple[int, Any] | Literal["stream"] | None:
    """The answer to one request: (status, body), "stream", or None for 404."""
    if parts[:2] != ["v1", "agents"]:
        return _account(parts)
    rest = parts[2:]
    if method == "GET" and not rest:
        return 200, {"items": list(api.agents.values())}
    if method == "POST" and not rest:
        agent_id = body.get("agentId") or f"bc-{uuid.uuid4()}"
        api.agents[agent_id] = _agent(agent_id, body.get("name"))
        return 201, {"agent": api.agents[agent_id], "run": api.new_run(agent_id)}
    agent = api.agents.get(rest[0])
    if agent is None:
        return None
    if len(rest) == 1 and method == "GET":
        return 200, agent
    if rest[1:] == ["runs"] and method == "POST":
        return _follow_up(api, agent)
    if len(rest) >= 3 and rest[1] == "runs" and rest[2] in api.runs:
        if len(rest) == 3:
            return 200, api.read_run(rest[2])
        if rest[3:] == ["stream"]:
            return "stream"
    return None


def _follow_up(api: MockApi, agent: dict[str, Any]) -> tuple[int, Any]:
    """A follow-up's answer: its run, or the API's refusal while the latest run is still running."""
    if api.busy(agent):
        return 409, {"error": {"code": "agent_busy", "message": "a run of this agent is still active"}}
    return 201, {"run": api.new_run(agent["id"])}


def _account(parts: list[str]) -> tuple[int, Any] | None:
    """The answers about the key and the account: `/v1/me`, `/v1/models`."""
    if parts == ["v1", "models"]:
        return 200, {"items": [{"id": model} for model in MODELS]}
    return (200, {"apiKeyName": "mock key", "createdAt": CREATED_AT}) if parts == ["v1", "me"] else None


@contextmanager
def mock_api(*, finish_on_read: bool = True, reads_to_finish: int = 1) -> Generator[MockApi]:
    """The mock, listening on 127.0.0.1 (a free port) in a thread until the block ends."""
    api = MockApi(finish_on_read=finish_on_read, reads_to_finish=reads_to_finish)
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (_Handler,), {"api": api}))
    api.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(
        target=lambda: server.serve_forever(poll_interval=0.02), name="mock-cursor-api", daemon=True
    )
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
