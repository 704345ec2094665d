"""The terminal's text arguments follow the tools' rule set (issue 34): P-86.

An argument that is not UTF-8 reaches Python as lone surrogates (`surrogateescape`): before, `run` sent such
a prompt, and `run --repo` with one crashed with a pydantic traceback. Each refusal is exit 2 before
anything is opened, with the rule in the message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.cli.main import main

AGENT = "bc-00000000-0000-4000-8000-000000000001"
REPO = "https://github.com/acme/service"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["run", "Fix the test \udcff", "--simulated", "--yes"], "lone surrogate"),
        (["run", "Fix\x00 the test", "--simulated", "--yes"], "control character"),
        (["run", "x" * 300_000, "--simulated", "--yes"], "bytes"),
        (["run", "Fix it", "--repo", REPO + "\udcff", "--simulated", "--yes"], "repository"),
        (["run", "Fix it", "--repo", REPO, "--ref", "ma\udcffin", "--simulated", "--yes"], "starting_ref"),
        (["run", "Fix it", "--repo", REPO, "--ref", "ma\ufffdin", "--simulated", "--yes"], "starting_ref"),
        (["followup", AGENT, "Go on\x1b[2J", "--simulated", "--yes"], "control character"),
        (["agents", "--name", "night\ufffd", "--simulated"], "U+FFFD"),
        (["agents", "--name", "n" * 1_000, "--simulated"], "over 500 characters"),
    ],
    ids=["prompt-surrogate", "prompt-nul", "prompt-size", "repo", "ref", "ref-lost", "followup", "name", "name-size"],
)
def test_a_terminal_text_argument_breaking_the_rule_set_is_refused_before_anything_opens(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P-86 (issue 34): exit 2, the rule said on stderr, nothing started: not even the lasting simulated world
    (a refused `--repo` had started one, left running in the person's state folder)."""
    monkeypatch.setenv("CURSOR_MCP_STATE_DIR", str(tmp_path))
    try:
        code = main(args)
    except SystemExit as exited:
        code = exited.code
    captured = capsys.readouterr()
    assert code == 2 and said in captured.err, captured.err[-500:]
    assert "started" not in captured.out
    assert not list(tmp_path.glob("simulated-world*")), "a simulated world was started for a refused command"
