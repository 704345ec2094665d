"""`cursor-cloud-agents verify`: the contract facts the client relies on, checked against the API with the user's key.

Each fact answers one line, `OK`, `DIFFERS` (what we expected, what came back), `SKIPPED` (why) or
`NEW` (a field or status the contract does not know: drift worth reporting, not a failure).
Read-only by default; `--spend` creates one small agent and walks its lifecycle. Every line goes
through the redactor, and identities (e-mail, names, prompts, repository URLs) are masked unless
asked, so the report is safe to paste in an issue. The API layer (and the model check's parameter names): no MCP here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cursor_cloud_agents.verify.command import Io, Options, run_verify

__all__ = ["Io", "Options", "run_verify"]
"""The front, loaded on first use: `cursor-cloud-agents verify` alone loads the facts and their checks."""


def __getattr__(name: str) -> Any:
    """A name of the front, imported from `verify.command` when first asked for (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module("cursor_cloud_agents.verify.command"), name)
