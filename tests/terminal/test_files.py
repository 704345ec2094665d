"""`artifacts --get` writes only a new file with a clean name inside its folder; anything else is exit 2 with one
line, no traceback, nothing written (issue 23)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.simulator import ArtifactSpec, ManualClock, RunScript, World
from cursor_cloud_agents.terminal import actions, files
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, USAGE, UsageError
from tests.terminal.conftest import Rig, RigFactory

pytestmark = pytest.mark.anyio

REPORT = "artifacts/report.md"


def agent_with_report(world: World) -> str:
    script = RunScript(artifacts=(ArtifactSpec(REPORT, 64),))
    return world.add_agent("Earlier work", script=script, created_ago=3600.0).id


def everything_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def one_line_refusal(rig: Rig) -> str:
    said = rig.errors()
    assert said.count("\n") == 1 and "Traceback" not in said, said
    return said


@pytest.mark.parametrize(
    "path",
    ["artifacts/../../etc/passwd", "artifacts/a/../../x", "artifacts/a\x1b]0;pwned\x07.md", "artifacts/ev\u202elif.md"],
)
async def test_an_artifact_path_that_steps_out_or_hides_characters_is_one_line_and_exit_2(
    rig_factory: RigFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """P-12: `../` ended in a ValueError traceback; an escape or bidi character in the path was sent (and named the
    file). Now: exit 2, one line, no request, no file."""
    monkeypatch.chdir(tmp_path)
    world = World(ManualClock())
    agent_id = agent_with_report(world)
    async with rig_factory(world) as rig:
        code = await execute(rig.term, partial(actions.artifacts, agent_id=agent_id, path=path, output=None))
        sent = rig.requests()
        said = one_line_refusal(rig)
    assert code == USAGE and "artifact path" in said
    assert sent == [] and everything_under(tmp_path) == []


def test_the_file_name_is_the_last_step_cleaned_of_hidden_characters_and_separators() -> None:
    """P-13: terminal escapes, hidden fillers and variation selectors go, and a backslash does not survive to make a
    path on any file system; a name left empty or a dot is refused."""
    assert files.file_name("artifacts/re\u3164port\ufe0f.md") == "report.md"
    assert files.file_name("artifacts/..\\..\\x") == "....x"
    assert files.file_name("artifacts/a\x1b[31mb") == "ab"
    for nameless in ("artifacts/\u3164", "artifacts/\\"):
        with pytest.raises(UsageError, match="no usable file name"):
            files.file_name(nameless)


async def test_a_link_in_the_files_place_is_refused_and_nothing_lands_where_it_points(
    rig_factory: RigFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P-13: a dangling link named like the artifact, pointing outside: `exists()` said no, the download ran, and
    the exclusive open raised FileExistsError (a traceback). Now refused before sending; nothing written."""
    here, outside = tmp_path / "here", tmp_path / "outside"
    here.mkdir()
    outside.mkdir()
    (here / "report.md").symlink_to(outside / "planted.md")
    monkeypatch.chdir(here)
    world = World(ManualClock())
    agent_id = agent_with_report(world)
    async with rig_factory(world) as rig:
        code = await execute(rig.term, partial(actions.artifacts, agent_id=agent_id, path=REPORT, output=None))
        sent = rig.requests()
        said = one_line_refusal(rig)
    assert code == USAGE and "exists" in said and sent == []
    assert everything_under(outside) == []


async def test_a_folder_swapped_for_a_link_during_the_download_cannot_send_the_file_outside(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """P-13: the folder is opened once before the download and the file created in that folder: swapping the
    folder for a link to elsewhere while the bytes come in writes nothing elsewhere (by name it would)."""
    folder, outside = tmp_path / "downloads", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    world = World(ManualClock())
    agent_id = agent_with_report(world)
    async with rig_factory(world) as rig:
        original = rig.session.api.download_artifact

        async def swapping(*args: Any, **kwargs: Any) -> bytes:
            folder.rename(tmp_path / "moved")
            folder.symlink_to(outside, target_is_directory=True)
            return await original(*args, **kwargs)

        rig.session.api.download_artifact = swapping  # type: ignore[method-assign]  # pyright: ignore[reportAttributeAccessIssue] -- the swap between check and write
        get = partial(actions.artifacts, agent_id=agent_id, path=REPORT, output=str(folder / "report.md"))
        code = await execute(rig.term, get)
    assert code == OK
    assert everything_under(outside) == []
    assert (tmp_path / "moved" / "report.md").stat().st_size == 64


async def test_without_output_the_file_lands_in_the_working_folder_under_its_name(
    rig_factory: RigFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P-13: the usual case still works: `--get artifacts/report.md` writes ./report.md."""
    monkeypatch.chdir(tmp_path)
    world = World(ManualClock())
    agent_id = agent_with_report(world)
    async with rig_factory(world) as rig:
        code = await execute(rig.term, partial(actions.artifacts, agent_id=agent_id, path=REPORT, output=None))
    assert code == OK and (tmp_path / "report.md").stat().st_size == 64


async def test_an_output_in_a_missing_folder_is_one_line_before_anything_is_sent(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """P-13: `-o missing/x` downloaded first, then raised FileNotFoundError (a traceback). Now exit 2 at once."""
    world = World(ManualClock())
    agent_id = agent_with_report(world)
    async with rig_factory(world) as rig:
        get = partial(actions.artifacts, agent_id=agent_id, path=REPORT, output=str(tmp_path / "missing" / "x"))
        code = await execute(rig.term, get)
        sent = rig.requests()
        one_line_refusal(rig)
    assert code == USAGE and sent == []
