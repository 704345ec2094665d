"""HTTP handlers of the simulated API: each endpoint of docs/api-contract.md §3 mapped onto the world.

Handlers authenticate, parse the query or body, call the world and answer compact JSON. Every
refusal is an `ApiError`, rendered by `app.py` into the documented error envelope.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from . import reads
from .environments import environment, environments
from .errors import ApiError, bad_request
from .records import ApiKey
from .streams import plan_stream, stream_body
from .wire import dumps
from .world import World


def json_response(content: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """Compact JSON, as the API answers."""
    return Response(dumps(content).encode(), status, headers, media_type="application/json")


def authenticate(world: World, header: str | None) -> ApiKey:
    """Accept `Bearer <key>` and `Basic base64(<key>:)`; anything else is 401 (docs/api-contract.md §1 Auth)."""
    scheme, _, value = (header or "").partition(" ")
    key = value.strip()
    if scheme.lower() == "basic":
        try:
            key = base64.b64decode(key, validate=True).decode().partition(":")[0]
        except (binascii.Error, UnicodeDecodeError):
            key = ""
    elif scheme.lower() != "bearer":
        key = ""
    record = world.keys.get(key)
    if record is None:
        raise ApiError(401, "unauthorized", "Invalid User API Key")
    return record


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


async def json_body(request: Request) -> Any:
    """The decoded body; None when empty (→ `missing_body`), 400 when not JSON.

    JSON as the API's own parser reads it: `NaN` and `Infinity` (which Python's parser takes) are
    refused, and a body nested past the parser's depth is a 400, not a crash.
    """
    raw = await request.body()
    if not raw.strip():
        return None
    try:
        return json.loads(raw, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise bad_request("Request body is not valid JSON") from None


class Api:
    """The endpoint handlers, bound to one world."""

    def __init__(self, world: World) -> None:
        self.world = world

    def _auth(self, request: Request) -> ApiKey:
        key = authenticate(self.world, request.headers.get("authorization"))
        team_id = request.headers.get("x-cursor-team-id")
        self.world.check_key(key, team_id, mutation=request.method != "GET")
        return key

    def _path(self, request: Request, name: str) -> str:
        return str(request.path_params[name])

    async def me(self, request: Request) -> Response:
        """`GET /v1/me`."""
        return json_response(self._auth(request).me())

    async def models(self, request: Request) -> Response:
        """`GET /v1/models`."""
        self._auth(request)
        return json_response(reads.models())

    async def repositories(self, request: Request) -> Response:
        """`GET /v1/repositories`, rate limited per key."""
        key = self._auth(request)
        self.world.check_repositories_integration()
        if self.world.quirks.repositories_rate_limited:
            self.world.repository_limiter.check(key.key, self.world.now())
        return json_response(reads.repositories())

    async def list_agents(self, request: Request) -> Response:
        """`GET /v1/agents`."""
        self._auth(request)
        query = request.query_params
        limit = reads.parse_limit(query.get("limit"))
        archived = reads.parse_bool(query.get("includeArchived"), True, "includeArchived")
        return json_response(reads.list_agents(self.world, limit, query.get("cursor"), query.get("prUrl"), archived))

    async def create_agent(self, request: Request) -> Response:
        """`POST /v1/agents` → 201 `{agent, run}`."""
        key = self._auth(request)
        creation = self.world.create_agent(await json_body(request), key)
        while self.world.now() < creation.ready_at:  # the clock may wake us early: look again
            await self.world.clock.wait(creation.ready_at)
        agent, run = self.world.landed(creation)
        created = agent.wire(self.world.now(), self.world.quirks)
        return json_response({"agent": created, "run": reads.run_wire(self.world, agent, run)}, 201)

    async def get_agent(self, request: Request) -> Response:
        """`GET /v1/agents/{id}`."""
        self._auth(request)
        return json_response(self.world.agent(self._path(request, "id")).wire(self.world.now(), self.world.quirks))

    async def delete_agent(self, request: Request) -> Response:
        """`DELETE /v1/agents/{id}`."""
        self._auth(request)
        return json_response({"id": self.world.delete(self._path(request, "id"))})

    async def archive(self, request: Request) -> Response:
        """`POST /v1/agents/{id}/archive` (idempotent)."""
        self._auth(request)
        return json_response({"id": self.world.archive(self._path(request, "id")).id})

    async def unarchive(self, request: Request) -> Response:
        """`POST /v1/agents/{id}/unarchive` (idempotent)."""
        self._auth(request)
        return json_response({"id": self.world.unarchive(self._path(request, "id")).id})

    async def list_runs(self, request: Request) -> Response:
        """`GET /v1/agents/{id}/runs`."""
        self._auth(request)
        limit = reads.parse_limit(request.query_params.get("limit"))
        cursor = request.query_params.get("cursor")
        return json_response(reads.list_runs(self.world, self._path(request, "id"), limit, cursor))

    async def create_run(self, request: Request) -> Response:
        """`POST /v1/agents/{id}/runs` → 201 `{run}`."""
        self._auth(request)
        agent = self.world.agent(self._path(request, "id"))
        run = self.world.follow_up(agent.id, await json_body(request))
        return json_response({"run": reads.run_wire(self.world, agent, run)}, 201)

    async def get_run(self, request: Request) -> Response:
        """`GET /v1/agents/{id}/runs/{runId}`."""
        self._auth(request)
        agent, run = self.world.run(self._path(request, "id"), self._path(request, "runId"))
        return json_response(reads.run_wire(self.world, agent, run))

    async def cancel_run(self, request: Request) -> Response:
        """`POST /v1/agents/{id}/runs/{runId}/cancel`."""
        self._auth(request)
        run = self.world.cancel(self._path(request, "id"), self._path(request, "runId"))
        return json_response({"id": run.id})

    async def stream(self, request: Request) -> Response:
        """`GET /v1/agents/{id}/runs/{runId}/stream` (SSE)."""
        self._auth(request)
        last = request.headers.get("last-event-id")
        plan = plan_stream(self.world, self._path(request, "id"), self._path(request, "runId"), last)
        headers = {
            "X-Cursor-Stream-Retention-Seconds": str(self.world.quirks.stream_retention_seconds),
            "Cache-Control": "no-cache",
        }
        return StreamingResponse(stream_body(self.world, plan), headers=headers, media_type="text/event-stream")

    async def usage(self, request: Request) -> Response:
        """`GET /v1/agents/{id}/usage[?runId=]`."""
        self._auth(request)
        run_id = request.query_params.get("runId")
        return json_response(reads.usage(self.world, self._path(request, "id"), run_id))

    async def artifacts(self, request: Request) -> Response:
        """`GET /v1/agents/{id}/artifacts`."""
        self._auth(request)
        return json_response(reads.list_artifacts(self.world, self._path(request, "id")))

    async def download(self, request: Request) -> Response:
        """`GET /v1/agents/{id}/artifacts/download?path=` → a 15-minute URL served by the simulator."""
        self._auth(request)
        agent_id = self._path(request, "id")
        artifact = reads.find_artifact(self.world, agent_id, request.query_params.get("path"))
        token = self.world.new_uuid().replace("-", "")
        expiry = self.world.now() + reads.DOWNLOAD_TTL_SECONDS
        self.world.downloads[token] = (self.world.agent(agent_id).id, artifact.path, expiry)
        url = f"{str(request.base_url).rstrip('/')}/sim/artifacts/{token}/{artifact.path.rsplit('/', 1)[-1]}"
        return json_response({"url": url, "expiresAt": reads.expires_at(self.world)})

    async def artifact_bytes(self, request: Request) -> Response:
        """`GET /sim/artifacts/{token}/{name}`: the presigned-URL stand-in; no Authorization needed."""
        found = self.world.downloads.get(self._path(request, "token"))
        if found is None or self.world.now() > found[2]:
            body = "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>"
            return Response(body, 403, media_type="application/xml")
        agent_id, path, _ = found
        artifact = reads.find_artifact(self.world, agent_id, path)
        return Response(artifact.body(), 200, media_type="application/octet-stream")

    async def conversation(self, request: Request) -> Response:
        """Legacy `GET /v0/agents/{id}/conversation`."""
        self._auth(request)
        return json_response(reads.conversation(self.world, self._path(request, "id")))

    async def environments(self, request: Request) -> Response:
        """`GET /v1/environments` (offset cursor, as in the docs example)."""
        self._auth(request)
        limit = reads.parse_limit(request.query_params.get("limit"))
        items = environments(self.world.origin)
        page, nxt = reads.page_by_offset(items, limit, request.query_params.get("cursor"))
        return json_response(reads.paged(page, nxt))

    async def environment(self, request: Request) -> Response:
        """`GET /v1/environments/{envId}`."""
        self._auth(request)
        return json_response(environment(self.world.origin, self._path(request, "envId")))
