"""Asking the person at the client: a yes/no question (MCP elicitation) and the client's roots, in both eras.

A 2025-11-25 connection (`initialize`) can take a request from us in the middle of a call: the question
goes out as `elicitation/create` (the roots as `roots/list`) and the call waits for the answer. A
2026-07-28 connection (`server/discover`) has no channel back while a call runs: the call answers an
`input_required` result carrying the question, and the client calls again with the answer (the
protocol's multi-round trip). Then the tool runs again from its start: tools ask before they send
anything that costs money or cannot be undone, so the first round has nothing to repeat.

The answers a retry carries count only for questions this server asked, in this very call: what was
asked, what was answered in earlier rounds and a digest of the call (the tool and all its arguments)
travel in `requestState` sealed with a key of this process (HMAC), so a caller can neither answer a
question it was never asked nor carry an answer over to another question or to other arguments (a yes
to a prompt's first line is not a yes to another prompt behind it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast
from urllib.parse import unquote, urlsplit

import anyio
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types import (
    ClientCapabilities,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequest,
    InputRequiredResult,
    InputResponse,
    ListRootsRequest,
    ListRootsResult,
    RequestId,
)
from mcp_types.version import is_version_at_least

from cursor_cloud_agents.core.call import Question

ROUND_TRIP_VERSION = "2026-07-28"
"""The first protocol revision without a channel back during a call (questions ride `input_required`)."""
STATE_SECONDS = 600.0
"""How long a sealed question stays answerable: the person may take a while, not forever."""
ROOTS_KEY = "roots"
R = TypeVar("R", ElicitResult, ListRootsResult)
_YES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "title": "Yes, go ahead", "default": True}},
    "required": ["confirm"],
}


class Consent(Enum):
    """What became of a question."""

    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    UNANSWERED = "unanswered"


def elicitation(question: Question) -> ElicitRequest:
    """The question as an MCP form elicitation: one boolean to confirm."""
    return ElicitRequest(params=ElicitRequestFormParams(message=question.message, requested_schema=_YES_SCHEMA))


@dataclass(frozen=True)
class Answer:
    """The person's answer, and why there is none when it is `UNANSWERED`."""

    consent: Consent
    reason: str = ""


class InputNeeded(Exception):
    """A 2026-07-28 call must answer `input_required`: the toolkit turns this into that result."""

    def __init__(self, result: InputRequiredResult) -> None:
        super().__init__("input required")
        self.result = result


class Peer(Protocol):
    """The client of one call, as far as asking the person goes."""

    @property
    def can_ask(self) -> bool: ...

    async def ask(self, question: Question, seconds: float) -> Answer: ...

    async def roots(self, seconds: float) -> list[Path] | None: ...


class NoPeer:
    """A client that cannot ask (no elicitation declared, or a task running on its own)."""

    can_ask = False

    async def ask(self, question: Question, seconds: float) -> Answer:  # noqa: ARG002 (the Peer signature)
        return Answer(Consent.UNANSWERED, "the client cannot ask its user")

    async def roots(self, seconds: float) -> list[Path] | None:  # noqa: ARG002 (the Peer signature)
        return None


def can_elicit(capabilities: ClientCapabilities | None) -> bool:
    """Whether the client declared form elicitation (a bare `elicitation: {}` predates modes and means form)."""
    elicitation = None if capabilities is None else capabilities.elicitation
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def has_roots(capabilities: ClientCapabilities | None) -> bool:
    return capabilities is not None and capabilities.roots is not None


def paths_of(result: ListRootsResult) -> list[Path]:
    """The local folders of a roots answer (`file://` URIs; anything else is not a folder of this machine)."""
    found: list[Path] = []
    for root in result.roots:
        parts = urlsplit(str(root.uri))
        if parts.scheme == "file" and parts.netloc in ("", "localhost"):
            found.append(Path(unquote(parts.path)))
    return found


def _consent(result: ElicitResult) -> Answer:
    if result.action == "decline":
        return Answer(Consent.DECLINED)
    if result.action == "cancel":
        return Answer(Consent.CANCELLED)
    content = result.content or {}
    said_no = "confirm" in content and content["confirm"] is not True  # a form's "false" or "no" is not a yes
    return Answer(Consent.DECLINED if said_no else Consent.ACCEPTED)


class SessionPeer:
    """A 2025-11-25 client: questions go out as requests while the call waits."""

    def __init__(self, session: ServerSession, request_id: RequestId | None) -> None:
        self._session = session
        self._request_id = request_id
        self.can_ask = can_elicit(session.client_capabilities)

    async def ask(self, question: Question, seconds: float) -> Answer:
        if not self.can_ask:
            return await NoPeer().ask(question, seconds)
        with anyio.move_on_after(seconds):
            try:
                return _consent(await self._send(elicitation(question), ElicitResult))
            except MCPError as refused:  # the client failed the question (or has no channel back)
                return Answer(Consent.UNANSWERED, f"the client could not ask: {refused.error.message[:200]}")
            except ValueError:  # an answer that is not an elicitation result (pydantic's ValidationError)
                return Answer(Consent.UNANSWERED, "the client's answer was not a yes or a no")
        return Answer(Consent.UNANSWERED, f"no answer within {seconds:.0f} s")

    async def roots(self, seconds: float) -> list[Path] | None:
        if not has_roots(self._session.client_capabilities):
            return None
        with anyio.move_on_after(seconds):
            try:
                return paths_of(await self._send(ListRootsRequest(), ListRootsResult))
            except (MCPError, ValueError):
                return []  # declared but not answered (or answered wrongly): no folder is allowed, not a guess
        return []

    async def _send(self, request: ElicitRequest | ListRootsRequest, kind: type[R]) -> R:
        related = ServerMessageMetadata(related_request_id=self._request_id)
        return await self._session.send_request(request, kind, metadata=related)


class RoundTripPeer:
    """A 2026-07-28 client: a question not yet answered ends the round with `input_required`."""

    def __init__(
        self,
        capabilities: ClientCapabilities | None,
        responses: dict[str, InputResponse] | None,
        state: str | None,
        seal: Seal,
        call: str = "",
    ) -> None:
        self.can_ask = can_elicit(capabilities)
        self._roots_declared = has_roots(capabilities)
        self._seal = seal
        self._call = call
        sealed = seal.open(state)
        if sealed.get("call", "") != call:
            sealed = {}  # sealed in a call with another tool or other arguments: nothing of it counts here
        asked: dict[str, str] = sealed.get("asked", {})
        self._known: dict[str, Any] = dict(sealed.get("known", {}))
        for key, response in (responses or {}).items():
            if key in asked:  # an answer counts only for a question we asked
                self._known[key] = {"q": asked[key], "answer": _plain(response)}

    async def ask(self, question: Question, seconds: float) -> Answer:
        if not self.can_ask:
            return await NoPeer().ask(question, seconds)
        answer = self._answer(question.key, elicitation(question))
        try:
            return _consent(ElicitResult.model_validate(answer))
        except ValueError:
            return Answer(Consent.UNANSWERED, "the client's answer was not a yes or a no")

    async def roots(self, seconds: float) -> list[Path] | None:  # noqa: ARG002 (no wait: the round ends instead)
        if not self._roots_declared:
            return None
        answer = self._answer(ROOTS_KEY, ListRootsRequest())
        try:
            return paths_of(ListRootsResult.model_validate(answer))
        except ValueError:
            return []

    def _answer(self, key: str, request: InputRequest) -> Any:
        digest = _digest(request)
        known = self._known.get(key)
        if known is not None and known.get("q") == digest:
            return known["answer"]
        sealed = self._seal.close({"call": self._call, "asked": {key: digest}, "known": self._known})
        raise InputNeeded(InputRequiredResult(input_requests={key: request}, request_state=sealed))


def _plain(response: InputResponse) -> Any:
    return response.model_dump(by_alias=True, mode="json", exclude_none=True)


def _digest(request: InputRequest) -> str:
    wire = json.dumps(request.model_dump(by_alias=True, mode="json", exclude_none=True), sort_keys=True)
    return hashlib.sha256(wire.encode()).hexdigest()[:32]


class Seal:
    """Integrity for `requestState`: HMAC-SHA256 under a key of this process, with an expiry; each state opens
    once, so a round answered once cannot be replayed for a second paid or irreversible act on the same yes."""

    def __init__(self, key: bytes | None = None, seconds: float = STATE_SECONDS) -> None:
        self._key = key or os.urandom(32)
        self._seconds = seconds
        self._opened: dict[str, float] = {}
        """The MAC of each state opened, kept until the state's own expiry."""

    def close(self, content: dict[str, Any]) -> str:
        body = base64.urlsafe_b64encode(json.dumps(content | {"until": time.time() + self._seconds}).encode())
        return f"{body.decode()}.{self._mac(body)}"

    def open(self, token: str | None) -> dict[str, Any]:
        """The content of a state we sealed, or nothing (absent, forged, altered or expired)."""
        if not token or "." not in token:
            return {}
        body, _, mac = token.rpartition(".")
        try:  # as bytes: hmac compares text only when it is ASCII, and a caller's state may be any text
            authentic = hmac.compare_digest(mac.encode(), self._mac(body.encode()).encode())
        except UnicodeEncodeError:  # a lone surrogate: no state we sealed
            return {}
        if not authentic:
            return {}
        try:
            content: object = json.loads(base64.urlsafe_b64decode(body))
        except ValueError:
            return {}
        sealed = cast(dict[str, Any], content) if isinstance(content, dict) else {}
        until, now = sealed.get("until"), time.time()
        if not isinstance(until, float | int) or until <= now:
            return {}
        self._opened = {opened: expiry for opened, expiry in self._opened.items() if expiry > now}
        if mac in self._opened:
            return {}  # opened before: the round it answered is over
        self._opened[mac] = until
        return sealed

    def _mac(self, body: bytes) -> str:
        return hmac.new(self._key, body, hashlib.sha256).hexdigest()


def call_digest(tool: str, arguments: Mapping[str, Any]) -> str:
    """What a sealed state is bound to: the tool and every argument of the call it was sealed in."""
    wire = json.dumps([tool, arguments], sort_keys=True, default=str)
    return hashlib.sha256(wire.encode()).hexdigest()


def peer_for(
    session: ServerSession,
    request_id: RequestId | None,
    responses: dict[str, InputResponse] | None,
    state: str | None,
    seal: Seal,
    call: tuple[str, Mapping[str, Any]],
) -> Peer:
    """The peer of one `tools/call` (`call`: its tool and arguments), by the protocol era its connection speaks."""
    if is_version_at_least(session.protocol_version, ROUND_TRIP_VERSION):
        return RoundTripPeer(session.client_capabilities, responses, state, seal, call_digest(*call))
    return SessionPeer(session, request_id)
