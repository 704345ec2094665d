"""No log line shows request or response content the masker has not seen (issue 23), whichever logger writes
it: the formatter shows scalars as they are and everything else by its type, and exceptions without the
input values pydantic quotes. A secret the redactor was never told stands for an `env_vars` value of a
message that was never judged as a call.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import httpx2
import pytest
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCNotification
from pydantic import BaseModel, ValidationError

from cursor_cloud_agents.redact import RedactingFormatter, Redactor

UNKNOWN_SECRET = "Zanzibar-unknown-0123456789"


def logged(message: object, *args: object, exc_info: bool = False) -> str:
    """What our stderr handler writes for one record of the SDK's logger (at DEBUG)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(Redactor(["the-key-is-known-000000"])))
    logger = logging.Logger("mcp.shared.jsonrpc_dispatcher", logging.DEBUG)  # on its own: no other handler
    logger.addHandler(handler)
    logger.debug(message, *args, exc_info=exc_info)
    return stream.getvalue()


class Arguments(BaseModel):
    limit: int


def refused_arguments() -> ValidationError:
    try:
        Arguments.model_validate({"limit": f"env_vars: {UNKNOWN_SECRET}"})
    except ValidationError as exc:
        return exc
    raise AssertionError("validated")


def test_an_sdk_message_given_to_a_log_line_is_shown_by_its_type_only() -> None:
    """S-10: the SDK logs `%r` of a message it drops (nine notifications before the first request: the ninth,
    whole, at DEBUG): its params may carry `env_vars` values no call ever registered with the masker."""
    notification = JSONRPCNotification(jsonrpc="2.0", method="notifications/x", params={"env": UNKNOWN_SECRET})
    line = logged("dropped a frame received before the first request: %r", SessionMessage(notification))
    assert UNKNOWN_SECRET not in line
    assert "dropped a frame received before the first request: <SessionMessage>" in line


def test_an_exception_given_to_a_log_line_is_shown_without_the_input_it_quotes() -> None:
    """S-11: the SDK logs `transport yielded exception: %r` with pydantic's error, which quotes the start and the
    end of the line it could not read; shown as its type, field and rule. A UnicodeDecodeError's repr holds the
    whole undecodable text: its message only is shown."""
    line = logged("transport yielded exception: %r", refused_arguments())
    assert UNKNOWN_SECRET[:12] not in line and "input_value" not in line
    assert "ValidationError: 1 validation error for Arguments" in line and "valid integer" in line
    undecodable = UnicodeDecodeError("utf-8", b"\xff" + UNKNOWN_SECRET.encode(), 0, 1, "invalid start byte")
    assert UNKNOWN_SECRET not in logged("stdin: %r", undecodable)


def test_a_traceback_shows_the_field_and_rule_of_a_validation_error_not_its_input() -> None:
    """S-12: `logger.exception` (the toolkit's INTERNAL, a task, an observer, the SDK's handler guard) prints the
    traceback: a ValidationError in it quotes the value it refused."""
    try:
        raise refused_arguments()
    except ValidationError:
        line = logged("internal error in %s", "cursor_list_agents", exc_info=True)
    assert UNKNOWN_SECRET[:12] not in line and "input_value" not in line
    assert "Traceback (most recent call last)" in line and "[type=int_parsing]" in line


def test_a_log_call_whose_message_is_an_object_shows_its_type_only() -> None:
    """S-10: `logger.debug(obj)` renders the object itself: a dict of arguments, say."""
    line = logged({"env_vars": {"TOKEN": UNKNOWN_SECRET}})
    assert UNKNOWN_SECRET not in line and "<dict>" in line


def test_a_log_line_that_cannot_be_formatted_prints_no_raw_argument(capsys: pytest.CaptureFixture[str]) -> None:
    """S-10: when a message and its arguments do not fit, logging prints the arguments to stderr itself."""
    logged("two placeholders %s %s but one argument", {"env": UNKNOWN_SECRET})
    assert UNKNOWN_SECRET not in capsys.readouterr().err


def test_scalars_paths_and_urls_are_shown_as_they_are() -> None:
    """What our own log lines and httpx2's request lines hold stays readable (ids, codes, paths, URLs)."""
    line = logged(
        "tool=%s status=%d ok=%s at %s url %s",
        "cursor_get_run",
        200,
        True,
        Path("/tmp/x"),
        httpx2.URL("https://api.cursor.com/v1/agents?limit=2"),
    )
    assert "tool=cursor_get_run status=200 ok=True at /tmp/x url https://api.cursor.com/v1/agents?limit=2" in line


def test_a_lone_mapping_argument_is_one_value_unless_the_message_names_its_keys() -> None:
    """S-10: `logger.debug("params: %r", params)` prints the whole dict (logging keeps a lone mapping as the
    arguments themselves); it is shown by its type. Named placeholders still read their values."""
    line = logged("params: %r", {"env_vars": {"TOKEN": UNKNOWN_SECRET}, "flat": UNKNOWN_SECRET})
    assert UNKNOWN_SECRET not in line and "params: <dict>" in line
    assert "tool=cursor_get_run" in logged("tool=%(tool)s", {"tool": "cursor_get_run"})
