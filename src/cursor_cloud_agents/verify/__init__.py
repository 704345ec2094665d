"""`cursor-cloud-agents verify`: the contract facts the client relies on, checked against the API with the user's key.

Each fact answers one line, `OK`, `DIFFERS` (what we expected, what came back), `SKIPPED` (why) or
`NEW` (a field or status the contract does not know: drift worth reporting, not a failure).
Read-only by default; `--spend` creates one small agent and walks its lifecycle. Every line goes
through the redactor, and identities (e-mail, names, prompts, repository URLs) are masked unless
asked, so the report is safe to paste in an issue. The API layer (and the model check's parameter names): no MCP here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cursor_cloud_agents import Front as _Front

# The typed imports below are the front's exports, each name written once: pyright reads them, `Front` reads
# them at run time (`__all__` and where each name loads from), so they are used though nothing here uses them.
# ruff: noqa: F401
# pyright: reportUnusedImport=false
if TYPE_CHECKING:
    from cursor_cloud_agents.verify.command import Io, Options, run_verify

_front = _Front(__name__, __file__, globals())
"""The names above, each loaded from its module when first asked for; `__all__` is derived from them."""


def __getattr__(name: str) -> Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    return _front.load(name)
