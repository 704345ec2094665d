"""The one module that imports httpx2: sending a request, reading a bounded body, opening an event stream.

Everything above this module sees plain values (`HttpAnswer`, `RawEvent`) and our own exceptions, so
the HTTP library can change without touching the client. Two rules live here because they depend on
what httpx2 does (docs/reliability.md §1.12):

- a failure is classified as *before sending* (connect refused or timed out, no pooled connection)
  or *maybe sent* (anything after: RemoteProtocolError, ReadError, ReadTimeout, WriteError...). Only
  the first kind may ever be retried, and for a mutation only the second kind is "outcome unknown";
- httpx2's read timeout is per chunk, so a total deadline (`anyio.fail_after`) wraps every exchange:
  a server dripping one byte at a time cannot hold a call past it.

No retries, no error mapping, no MCP here.
"""

from __future__ import annotations

import functools
import logging
import ssl
import time
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import httpx2

from cursor_cloud_agents.api._frames import FrameBatch, FrameDecoder, FrameTooLargeError, parse_block
from cursor_cloud_agents.api._outcomes import HttpAnswer, SendFailure, no_slot, request_id_of
from cursor_cloud_agents.api._slots import ConnectionSlots, SlotWaitTimeout, StreamSlot
from cursor_cloud_agents.api.deadline import CONNECT_CAP_SECONDS
from cursor_cloud_agents.api.errors import IncompatibleResponseError, ResponseTooLargeError, StreamError
from cursor_cloud_agents.api.events import RawEvent
from cursor_cloud_agents.api.record import Exchange, Observer, StreamExchange

logger = logging.getLogger(__name__)

Transport = httpx2.AsyncBaseTransport
"""What `CursorClient(transport=...)` accepts: any httpx2 async transport (MockTransport in tests)."""

_BEFORE_SENDING = (httpx2.ConnectError, httpx2.ConnectTimeout, httpx2.PoolTimeout, httpx2.UnsupportedProtocol)


def _timeout(total: float, read: float | None = None) -> httpx2.Timeout:
    return httpx2.Timeout(
        connect=min(total, CONNECT_CAP_SECONDS), read=total if read is None else read, write=total, pool=total
    )


def _failure(exc: httpx2.TransportError) -> SendFailure:
    # The message names the exception class only: httpx2 messages may carry the URL.
    kind = type(exc).__name__
    if isinstance(exc, _BEFORE_SENDING):
        return SendFailure(
            f"could not connect ({kind})", maybe_sent=False, timed_out=isinstance(exc, httpx2.TimeoutException)
        )
    return SendFailure(
        f"the exchange broke after sending ({kind})",
        maybe_sent=True,
        timed_out=isinstance(exc, httpx2.TimeoutException),
    )


def _headers_of(response: httpx2.Response) -> dict[str, str]:
    return {name.lower(): value for name, value in response.headers.items()}


def _check_identity(response: httpx2.Response, request_id: str | None) -> None:
    # We ask for identity: a compressed body could expand past any cap inside a single chunk.
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding not in ("", "identity"):
        raise IncompatibleResponseError(
            f"the answer is {encoding[:20]}-encoded although identity was asked",
            status_code=response.status_code,
            request_id=request_id,
        )


async def _read_capped(response: httpx2.Response, limit: int, request_id: str | None) -> bytes:
    _check_identity(response, request_id)
    declared = response.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ResponseTooLargeError(
            f"the answer declares {declared} bytes, over the {limit}-byte cap",
            limit=limit,
            status_code=response.status_code,
            request_id=request_id,
        )
    buffer = bytearray()
    async for chunk in response.aiter_bytes():
        buffer += chunk
        if len(buffer) > limit:
            raise ResponseTooLargeError(
                f"the answer went past the {limit}-byte cap",
                limit=limit,
                status_code=response.status_code,
                request_id=request_id,
            )
    return bytes(buffer)


def _naming(url: str, server_name: str | None) -> dict[str, Any]:
    """Request options that send to the URL's address while naming `server_name` in Host and in TLS."""
    if server_name is None:
        return {}
    port = httpx2.URL(url).port
    host = server_name if port is None else f"{server_name}:{port}"
    return {"headers": {"Host": host}, "extensions": {"sni_hostname": server_name}}


@functools.cache
def _verified_tls() -> ssl.SSLContext:
    """One verified TLS context for the process: building one reads the CA bundle (about 0.1 s)."""
    return httpx2.create_ssl_context(trust_env=False)


class HttpSession:
    """One long-lived httpx2 client: fixed headers, no redirects, no environment, bounded connections.

    The client is built on first use, so that a server which has not called the API yet (start-up,
    `tools/list`) has not paid for its TLS setup.
    """

    def __init__(
        self,
        *,
        base_url: str,
        headers: Mapping[str, str],
        transport: Transport | None,
        max_connections: int = 8,
        observer: Observer | None = None,
    ) -> None:
        self._base_url = base_url
        self._headers = dict(headers)
        self._transport = transport
        self._slots = ConnectionSlots(max_connections)
        self._observer = observer
        """Hears every answered exchange (recording, `verify`); None in normal use."""
        self._opened: httpx2.AsyncClient | None = None

    @property
    def _client(self) -> httpx2.AsyncClient:
        if self._opened is None:
            self._opened = httpx2.AsyncClient(
                base_url=self._base_url,
                headers=self._headers,
                transport=self._transport,
                verify=_verified_tls() if self._transport is None else True,
                follow_redirects=False,
                # Proxies and .netrc from the environment would send the key elsewhere: configuration is explicit.
                trust_env=False,
                limits=httpx2.Limits(
                    max_connections=self._slots.pool_size, max_keepalive_connections=self._slots.pool_size
                ),
                timeout=_timeout(30.0),
            )
        return self._opened

    async def aclose(self) -> None:
        """Close the pooled connections (if any were opened)."""
        if self._opened is not None:
            await self._opened.aclose()

    async def request(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Any = None,
        timeout: float,
        max_bytes: int,
        server_name: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> HttpAnswer:
        """Send one request (with `headers` besides the session's) and read its whole answer, within `timeout` seconds.

        `server_name`, when given, is the host the URL's address was resolved from: the connection goes
        to the address in the URL (vetted by the caller, never resolved again) while the Host header and
        TLS (SNI and the certificate check) name the server.

        Raises:
            SendFailure: no HTTP answer (connect failure, cut, reset, timeout).
            ResponseTooLargeError: the body went past `max_bytes`.
        """
        try:
            async with self._slots.request_slot(timeout) as slot:
                left = slot.seconds_left
                with anyio.fail_after(left):
                    answer = await self._exchange(
                        method,
                        url,
                        params=params,
                        json=json,
                        timeout=left,
                        max_bytes=max_bytes,
                        server_name=server_name,
                        headers=headers,
                    )
        except SlotWaitTimeout:
            raise no_slot() from None
        except httpx2.TransportError as exc:
            raise _failure(exc) from None
        except TimeoutError:
            raise SendFailure(
                "the total deadline passed before the answer was read", maybe_sent=True, timed_out=True
            ) from None
        # Outside the deadline: the answer is read, and the observer's work (JSON, masking, a file) must not
        # turn it into a timeout, i.e. a mutation's outcome into "unknown". Built only when heard (as a stream's tap).
        if self._observer is not None:
            self._observe(Exchange(method, url, dict(params or {}), json, answer.status, answer.headers, answer.body))
        return answer

    def _observe(self, exchange: Exchange | StreamExchange) -> None:
        """Hand `exchange` to the observer, if any; an observer never fails the call it heard."""
        if self._observer is None:
            return
        try:
            if isinstance(exchange, Exchange):
                self._observer.exchange(exchange)
            else:
                self._observer.stream(exchange)
        except Exception:  # any failure of a recorder or of verify's memory: the exchange itself succeeded
            logger.warning("an exchange observer failed; the call goes on", exc_info=True)

    async def _exchange(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None,
        json: Any,
        timeout: float,
        max_bytes: int,
        server_name: str | None,
        headers: Mapping[str, str] | None = None,
    ) -> HttpAnswer:
        options = _naming(url, server_name)
        if headers:
            options["headers"] = dict(headers) | options.get("headers", {})
        async with self._client.stream(
            method,
            url,
            params=dict(params) if params else None,
            json=json,
            timeout=_timeout(timeout),
            **options,
        ) as response:
            headers = _headers_of(response)
            request_id = request_id_of(headers)
            body = await _read_capped(response, max_bytes, request_id)
            return HttpAnswer(status=response.status_code, headers=headers, body=body, request_id=request_id)

    @asynccontextmanager
    async def event_stream(
        self,
        url: str,
        *,
        headers: Mapping[str, str],
        connect_timeout: float,
        idle_timeout: float,
        max_event_size: int,
        max_error_bytes: int,
    ) -> AsyncGenerator[OpenStream]:
        """Open an SSE stream; the caller checks `status` before iterating `events()`.

        Raises:
            SendFailure: the stream could not be opened.
        """
        try:
            async with self._slots.request_slot(connect_timeout) as slot:
                response = await self._open(url, headers, slot.seconds_left, idle_timeout)
                tap = None
                if self._observer is not None:
                    tap = StreamExchange(
                        url, dict(headers), response.status_code, _headers_of(response), time.monotonic()
                    )
                try:
                    yield OpenStream(
                        response, max_event_size=max_event_size, max_error_bytes=max_error_bytes, tap=tap, slot=slot
                    )
                finally:
                    await response.aclose()
                    if tap is not None:
                        self._observe(tap)
        except SlotWaitTimeout:
            raise no_slot() from None

    async def _open(self, url: str, headers: Mapping[str, str], timeout: float, idle_timeout: float) -> httpx2.Response:
        """Send the stream's request and read its status line and headers, within `timeout` seconds."""
        try:
            with anyio.fail_after(timeout):
                request = self._client.build_request(
                    "GET", url, headers=dict(headers), timeout=_timeout(timeout, read=idle_timeout)
                )
                return await self._client.send(request, stream=True)
        except httpx2.TransportError as exc:
            raise _failure(exc) from None
        except TimeoutError:
            raise SendFailure("the stream did not open before the deadline", maybe_sent=True, timed_out=True) from None


class OpenStream:
    """An opened event stream: its status and headers now, its events as they come."""

    def __init__(
        self,
        response: httpx2.Response,
        *,
        max_event_size: int,
        max_error_bytes: int,
        tap: StreamExchange | None = None,
        slot: StreamSlot | None = None,
    ) -> None:
        self._response = response
        self._slot = slot
        self._tap = tap
        """Where frames are copied for the observer (recording), when there is one."""
        self._max_event_size = max_event_size
        self._max_error_bytes = max_error_bytes
        self.status = response.status_code
        self.headers = _headers_of(response)
        self.request_id = request_id_of(self.headers)
        self.last_event_id: str | None = None

    @property
    def bytes_read(self) -> int:
        """Bytes received on this connection so far."""
        return self._response.num_bytes_downloaded

    @property
    def listening(self) -> bool:
        """Whether the stream holds a listener slot rather than a request slot (see `_slots`)."""
        return self._slot is not None and self._slot.listening

    def to_listening(self) -> bool:
        """Hold a listener slot instead of a request slot from now on (see `_slots`); False when none is free."""
        return self._slot is not None and self._slot.to_listening()

    async def error_body(self) -> bytes:
        """The body of a non-200 answer, bounded."""
        try:
            body = await _read_capped(self._response, self._max_error_bytes, self.request_id)
        except httpx2.TransportError as exc:
            raise _failure(exc) from None
        if self._tap is not None:
            self._tap.body = body
        return body

    def _check_sse(self) -> None:
        content_type = self.headers.get("content-type", "").partition(";")[0].strip().lower()
        if content_type != "text/event-stream":
            raise IncompatibleResponseError(
                f"expected text/event-stream, got {content_type[:60]!r}",
                status_code=self.status,
                request_id=self.request_id,
            )
        _check_identity(self._response, self.request_id)

    async def frame_batches(self) -> AsyncGenerator[FrameBatch]:
        """The stream's frames as raw blocks, per received chunk, by the fast decoder (nothing parsed).

        Same frames as `events()`, several times faster: used to walk whole replays.

        Raises:
            IncompatibleResponseError: the answer is not `text/event-stream`.
            StreamError: the connection broke, or an event went past the size cap.
        """
        self._check_sse()
        decoder = FrameDecoder(self._max_event_size)
        with self._stream_errors(FrameTooLargeError):
            async for chunk in self._response.aiter_bytes():
                batch = decoder.feed_blocks(chunk)
                if batch is not None:
                    self.last_event_id = batch.last_id(end=len(batch.blocks)) or self.last_event_id
                    self._copy_blocks(batch)
                    yield batch

    async def events(self) -> AsyncIterator[RawEvent]:
        """The stream's events, each at most `max_event_size` bytes, decoded by httpx2's SSE parser.

        Raises:
            IncompatibleResponseError: the answer is not `text/event-stream`.
            StreamError: the connection broke, or an event went past the size cap.
        """
        self._check_sse()
        source = httpx2.EventSource(self._response, max_event_size=self._max_event_size)
        with self._stream_errors(httpx2.SSEError):
            async for sse in source:
                # httpx2 carries the last id seen onto frames without one (the SSE "last event id" buffer).
                event_id = sse.id or None
                self.last_event_id = event_id
                if self._tap is not None:
                    self._tap.add(sse.event, sse.data, event_id, time.monotonic())
                yield RawEvent(sse.event, sse.data, event_id)

    def _copy_blocks(self, batch: FrameBatch) -> None:
        if self._tap is None:
            return
        now = time.monotonic()
        for block in batch.blocks:
            event = parse_block(block)
            if event is not None:
                self._tap.add(event.event, event.data, event.id, now)

    @contextmanager
    def _stream_errors(self, too_large: type[Exception]) -> Generator[None, None, None]:
        """Turn a broken connection or an oversized event into a StreamError that says where to resume."""
        try:
            yield
        except too_large as exc:
            raise StreamError(
                f"stream refused: {exc}", last_event_id=self.last_event_id, request_id=self.request_id
            ) from None
        except httpx2.TransportError as exc:
            raise StreamError(
                f"the stream broke ({type(exc).__name__})", last_event_id=self.last_event_id, request_id=self.request_id
            ) from None
