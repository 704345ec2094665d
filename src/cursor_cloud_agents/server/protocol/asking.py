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

from cursor_cloud_agents.core import clean
from cursor_cloud_agents.core.call import Question
from cursor_cloud_agents.core.timing import SEALED_QUESTION_SECONDS as STATE_SECONDS

ROUND_TRIP_VERSION = "2026-07-28"
"""The first protocol revision without a channel back during a call (questions ride `input_required`)."""
ROOTS_KEY = "roots"
R = TypeVar("R", ElicitResult, ListRootsResult)
YES_FIELD = "confirm"
"""The one field of every question's form: only `accept` with exactly `{"confirm": true}` is a yes."""
_YES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {YES_FIELD: {"type": "boolean", "title": "Yes, go ahead", "default": True}},
    "required": [YES_FIELD],
}
NAMES_SHOWN = 3
"""How many field names of an answer that is not a yes its description names."""
NAME_CHARS = 24
"""How much of one field name (or string value) that description shows, cleaned."""


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
    """The client's answer: its consent, the action it sent (`accept`, `decline`, `cancel`; none when it sent
    none), and in one line why it is not a yes (what an `accept` carried, or why there is no answer)."""

    consent: Consent
    reason: str = ""
    action: str | None = None


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
    """A yes only when the client accepted with exactly the field asked for, the boolean `true` (a client
    that answers another field, or "yes" as text, has not said yes to this act).

    Anything else is a no, described in one line: no content, other fields or spellings (`Confirm`,
    `confirmed`), a string `"true"`, a 1, or a "no" in a field beside the yes (which one is meant?)."""
    if result.action != "accept":
        return Answer(Consent.DECLINED if result.action == "decline" else Consent.CANCELLED, action=result.action)
    content = result.content
    if content is not None and list(content) == [YES_FIELD] and content[YES_FIELD] is True:
        return Answer(Consent.ACCEPTED, action="accept")
    return Answer(Consent.DECLINED, f"accept {_carried(content)}", action="accept")


def _carried(content: Mapping[str, object] | None) -> str:
    """What an accept that is not a yes carried, in a few words (names and strings cleaned and clipped)."""
    if content is None:
        return "with no content"
    others = [name for name in content if name != YES_FIELD]
    if YES_FIELD not in content:
        return f"without {YES_FIELD}, with {_fields(others)}" if others else "with empty content"
    said = f"with {YES_FIELD} = {_kind(content[YES_FIELD])}"
    return f"{said} and {_fields(others)} beside it" if others else said


def _fields(names: list[str]) -> str:
    shown = ", ".join(repr(_clip(name)) for name in names[:NAMES_SHOWN])
    more = f" and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
    return f"the field{'s' if len(names) > 1 else ''} {shown}{more}"


def _kind(value: object) -> str:
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return f"the string {_clip(value)!r}"
    if isinstance(value, int | float):
        return f"the number {_clip(str(value))}"
    return "a list"


def _clip(text: str, chars: int = NAME_CHARS) -> str:
    flat = " ".join(clean(text).split())
    return flat if len(flat) <= chars else flat[: chars - 1] + "…"


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
                return Answer(Consent.UNANSWERED, f"the client could not ask: {_clip(refused.error.message, 200)}")
            except ValueError:  # an answer that is not an elicitation result (pydantic's ValidationError)
                return Answer(Consent.UNANSWERED, "the client's answer was not a yes or a no")
        return Answer(Consent.UNANSWERED, f"no answer within {seconds:.1f} s")

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
