"""The Starlette application of the simulator: routes, error envelope, faults and the request log.

`build_app(world, faults)` can be served by any ASGI server for HTTP-level behaviour; socket-level
faults need `serve()` (a real socket it controls).
"""

from __future__ import annotations

import math
from collections.abc import MutableMapping
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .asgi import read_body, replay_body
from .errors import ApiError
from .faults import SCOPE_KEY, Fault, Faults, RequestRecord
from .github import github_routes
from .routes import Api, json_response
from .streamfaults import stream_fault_send
from .wire import dumps
from .world import World


def _routes(api: Api) -> list[Route]:
    agent = "/v1/agents/{id}"
    run = agent + "/runs/{runId}"
    table: list[tuple[str, str, Any]] = [
        ("GET", "/v1/me", api.me),
        ("GET", "/v1/models", api.models),
        ("GET", "/v1/repositories", api.repositories),
        ("GET", "/v1/agents", api.list_agents),
        ("POST", "/v1/agents", api.create_agent),
        ("GET", agent, api.get_agent),
        ("DELETE", agent, api.delete_agent),
        ("POST", agent + "/archive", api.archive),
        ("POST", agent + "/unarchive", api.unarchive),
        ("GET", agent + "/runs", api.list_runs),
        ("POST", agent + "/runs", api.create_run),
        ("GET", run, api.get_run),
        ("POST", run + "/cancel", api.cancel_run),
        ("GET", run + "/stream", api.stream),
        ("GET", agent + "/usage", api.usage),
        ("GET", agent + "/artifacts", api.artifacts),
        ("GET", agent + "/artifacts/download", api.download),
        ("GET", "/v0/agents/{id}/conversation", api.conversation),
        ("GET", "/v1/environments", api.environments),
        ("GET", "/v1/environments/{envId}", api.environment),
        ("GET", "/sim/artifacts/{token}/{name}", api.artifact_bytes),
    ]
    return [Route(path, endpoint, methods=[method]) for method, path, endpoint in table]


async def _api_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)  # registered for ApiError only
    return json_response(exc.envelope(), exc.status, exc.headers)


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)  # registered for HTTPException only
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "internal_error")
    return json_response({"error": {"code": code, "message": str(exc.detail)}}, exc.status_code)


def build_app(world: World, faults: Faults | None = None) -> Starlette:
    """The simulated API as a Starlette app, with fault injection and request logging."""
    api = Api(world)
    handlers = {ApiError: _api_error, HTTPException: _http_error}
    # GitHub's stand-in (the PRs of the simulated agents) under /github: GITHUB_API_URL=<base URL>/github.
    routes = [*_routes(api), Mount("/github", routes=github_routes(world))]
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.add_middleware(FaultMiddleware, faults=faults or Faults(), world=world)
    return app


def _log_headers(scope: Scope) -> dict[str, str]:
    headers: dict[str, str] = {}
    for raw_name, raw_value in scope["headers"]:
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        # Keep the scheme only: tests can check which one was sent, and the key never lands in a log.
        headers[name] = value.split(" ", 1)[0] + " <redacted>" if name == "authorization" else value
    return headers


def _authorization(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name.lower() == b"authorization":
            return value.decode("latin-1")
    return ""


class FaultMiddleware:
    """Logs every request, counts requests in flight, and applies HTTP-level faults."""

    def __init__(self, app: ASGIApp, faults: Faults, world: World) -> None:
        self.app = app
        self.faults = faults
        self.world = world

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        faults = self.faults
        faults.in_flight += 1
        faults.max_in_flight = max(faults.max_in_flight, faults.in_flight)
        done = False

        def finish() -> None:
            nonlocal done
            if not done:
                done = True
                faults.in_flight -= 1

        async def watched_receive() -> Message:
            message = await receive()
            if message["type"] == "http.disconnect":
                finish()  # the client hung up: its request is over, however long the handler takes to stop
            return message

        try:
            await self._handle(scope, watched_receive, send)
        finally:
            finish()

    async def _handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await read_body(receive)
        method, path = scope["method"], scope["path"]
        query = scope.get("query_string", b"").decode("latin-1")
        record = RequestRecord(method, path, query, _log_headers(scope), body, self.world.now())
        record.request_id = f"req-{len(self.faults.requests) + 1:08d}"
        self.faults.requests.append(record)
        if self.faults.latency > 0:
            await anyio.sleep(self.faults.latency)
        fault = record.fault = self.faults.take(method, path)
        if fault is not None and fault.delay > 0:
            await (anyio.sleep_forever() if math.isinf(fault.delay) else anyio.sleep(fault.delay))
        if fault is not None and (fault.status is not None or fault.echo_authorization):
            await self._answer_fault(scope, fault, record, send)
            return
        if fault is not None and fault.socket is not None:
            scope[SCOPE_KEY] = fault
        if fault is not None and fault.stream is not None:
            send = stream_fault_send(fault, send)
        await self.app(scope, replay_body(body, receive), _recording(record, send))

    async def _answer_fault(self, scope: Scope, fault: Fault, record: RequestRecord, send: Send) -> None:
        body, status = fault.body, fault.status or 400
        if fault.echo_authorization:
            message = f"Malformed request header: Authorization: {_authorization(scope)}"
            body = dumps({"error": {"code": "validation_error", "message": message}}).encode()
        headers = {"content-type": "application/json"} | {k.lower(): v for k, v in fault.headers.items()}
        headers["content-length"] = str(len(body))
        headers.setdefault("x-request-id", record.request_id)
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        record.status = status
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": body})


def _recording(record: RequestRecord, send: Send) -> Send:
    async def recording(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            record.status = message["status"]
            # Every answer names its request, as the real API does in `x-request-id` (docs/api-contract.md §1).
            request_id = (b"x-request-id", record.request_id.encode())
            message = {**message, "headers": [*message.get("headers", []), request_id]}
        await send(message)

    return recording
