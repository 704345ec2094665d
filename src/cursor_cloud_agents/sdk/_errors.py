"""The SDK's errors are the product's: a `ToolFailure` with its stable `code` (`VALIDATION`, `LIMIT_REACHED`,
`AGENT_BUSY`, `MUTATION_OUTCOME_UNKNOWN`, `NOT_FOUND`, ...) and its context, as the MCP server and the
terminal report them. An API client error becomes the failure the server would answer (`failures.from_api_error`),
and every message and context value leaves with the known secrets masked.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager

from cursor_cloud_agents.api import CursorError
from cursor_cloud_agents.core import Code, ToolFailure, from_api_error
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.sdk._words import for_program


def masked(failure: ToolFailure, redactor: Redactor) -> ToolFailure:
    """`failure` with its next step in the SDK's words (`sdk/_words.py`) and every secret masked in its message
    and context."""
    said = ToolFailure(failure.code, redactor.mask(for_program(failure)))
    said.context = {
        key: redactor.mask(value) if isinstance(value, str) else value for key, value in failure.context.items()
    }
    return said


@contextmanager
def translated(redactor: Redactor) -> Generator[None]:
    """Raise what the block raised as the product's typed failure, secrets masked."""
    try:
        yield
    except ToolFailure as failure:
        raise masked(failure, redactor) from None
    except CursorError as error:
        raise masked(from_api_error(error), redactor) from None
    except ValueError as error:  # the client's checks of ids and paths, before anything is built or sent
        raise ToolFailure(Code.VALIDATION, redactor.mask(f"{error}. Nothing was sent.")) from error
