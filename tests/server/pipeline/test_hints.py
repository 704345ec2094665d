"""Every call the server suggests validates (issue 10): a model that follows our own hints never meets VALIDATION.

The hints are found where a model can read them: the instructions, and every string the server's code
can put in an answer (string constants and f-strings, with their holes filled by a sample value). Each
`cursor_...(...)` found is judged by the named tool's strict argument model, placeholders filled with
valid sample values.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_toolkit
from cursor_cloud_agents.server.protocol.instructions import instructions

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "cursor_cloud_agents"
FACES = (PACKAGE / "server", PACKAGE / "core")
"""Where hints are written: the MCP face, and the core whose failures carry them."""


def modules() -> list[Path]:
    return sorted(path for folder in FACES for path in folder.rglob("*.py"))


CALL = re.compile(r"\b(cursor_[a-z_]+)\(([^()]*)\)")
HOLE = "'x'"
SAMPLES: dict[str, Any] = {
    "agent_id": "bc-00000000-0000-4000-8000-000000000001",
    "confirm_agent_id": "bc-00000000-0000-4000-8000-000000000001",
    "run_id": "run-00000000-0000-4000-8000-000000000002",
    "group_id": "grp-00000000-0000-4000-8000-000000000003",
    "prompt": "Fix the failing test",
    "path": "artifacts/report.md",
    "runs": [{"agent_id": "bc-00000000-0000-4000-8000-000000000001"}],
    "result_offset": 12_000,
}


def _text_of(node: ast.AST) -> str | None:
    """A string constant, or an f-string with every hole replaced by a sample string literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [p.value if isinstance(p, ast.Constant) else HOLE for p in node.values]
        return "".join(str(part) for part in parts)
    return None


def server_strings() -> list[str]:
    """Every string the server's code holds (adjacent literals joined, as Python joins them)."""
    found: list[str] = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            text = _text_of(node)
            if text is not None:
                found.append(text)
    return found


def module_strings() -> list[str]:
    """The string values the server's modules hold once imported (hints written by `hints.suggest`)."""
    found: list[str] = []
    for path in modules():
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        module = importlib.import_module(".".join(("cursor_cloud_agents", *parts)).removesuffix(".__init__"))
        found += [value for value in vars(module).values() if isinstance(value, str)]
    return found


def suggested_calls() -> list[tuple[str, str]]:
    texts = [instructions(Settings()), instructions(Settings(simulated=True)), *server_strings(), *module_strings()]
    return sorted({(match[1], match[2]) for text in texts for match in CALL.finditer(text)})


def _value(literal: str) -> Any:
    if literal in ("...", HOLE) or (literal.startswith("<") and literal.endswith(">")):
        return None  # a value the answer itself gives (`<result_next_offset>`): the sample stands in
    if literal in ("true", "false"):
        return literal == "true"
    if literal.lstrip("-").isdigit():
        return int(literal)
    return literal.strip("'\"")


def arguments_of(listed: str) -> dict[str, Any]:
    """The arguments a hint names: placeholders get sample values, literals keep theirs."""
    arguments: dict[str, Any] = {}
    for part in filter(None, (piece.strip() for piece in listed.split(","))):
        name, _, literal = part.partition("=")
        value = _value(literal) if literal else None
        arguments[name] = value if value is not None else SAMPLES.get(name, "x")
    return arguments


def test_the_hints_are_found() -> None:
    """The search itself works: the create answer's hint and the instructions' calls are among those found."""
    tools = {tool for tool, _ in suggested_calls()}
    assert {"cursor_get_run", "cursor_list_agents"} <= tools


@pytest.mark.parametrize(("tool", "listed"), suggested_calls())
def test_every_suggested_call_validates(tool: str, listed: str) -> None:
    """Issue 10: the create answer once suggested wait_seconds=60 against a maximum of 50."""
    specs = build_toolkit(Settings(), Redactor()).specs
    assert tool in specs, f"{tool} is suggested but is no tool"
    try:
        judged = specs[tool].arguments.judge(arguments_of(listed))
    except ToolFailure as refused:
        pytest.fail(f"{tool}({listed}) does not validate: {refused.message}")
    assert not judged.clamped, f"{tool}({listed}) suggests a value above its maximum: {judged.clamped}"
