"""docs/sdk.md: every Python example runs against the simulator (sync and async), and the side-by-side table of
names with Cursor's SDK is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).parent.parent.parent / "docs" / "sdk.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def examples() -> list[str]:
    return _BLOCK.findall(DOC.read_text(encoding="utf-8"))


def example_id(code: str) -> str:
    return f"example{examples().index(code) + 1}-{'async' if 'AsyncCursor' in code else 'sync'}"


def test_the_doc_has_sync_and_async_examples() -> None:
    found = examples()
    assert sum("AsyncCursor" in code for code in found) >= 2
    assert sum("AsyncCursor" not in code for code in found) >= 4
    assert all("simulated=True" in code for code in found)  # none of them reaches the real API


@pytest.mark.parametrize("code", examples(), ids=example_id)
def test_each_example_of_the_doc_runs_against_the_simulator(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each block runs as a script would (the async ones through asyncio.run) and prints what it says it does."""
    exec(compile(code, str(DOC), "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.strip()


def test_the_doc_holds_the_side_by_side_table_of_names() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## Side by side with Cursor's SDK") :]
    for name in ("Agent.create", "Agent.prompt", "agent.send", "run.wait()", "run.stream()", "Cursor.me()", "local="):
        assert f"`{name}" in table or name in table
    assert table.count("| maps") >= 5 and table.count("| differs") >= 5 and table.count("| absent") >= 3
