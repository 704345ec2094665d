"""A local image is opened once and judged by what was opened, not by its name again (issue 23), and read off the
event loop."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import anyio
import pytest

from cursor_cloud_agents.api import PromptImage
from cursor_cloud_agents.core import images
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.simulator.images import png

INSIDE, OUTSIDE = png(4, 3), png(9, 9)


def folders(tmp_path: Path) -> tuple[Path, Path]:
    """An allowed root with `sub/shot.png`, and an outside folder with another `shot.png`."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "sub" / "shot.png").write_bytes(INSIDE)
    (outside / "shot.png").write_bytes(OUTSIDE)
    return root, outside


@pytest.mark.parametrize("where_opened", ["descriptor", "resolved again"])
def test_a_folder_swapped_for_a_link_after_the_check_does_not_send_an_outside_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where_opened: str
) -> None:
    """P-14: the name resolves inside; then `sub` becomes a link to a folder outside before the open. By name,
    the open followed the link and sent the outside image; the opened file's own path is judged now (from
    /proc/self/fd, or, where a system names no descriptor's path, the name resolved again and the same inode)."""
    if where_opened == "resolved again":
        readlink = os.readlink

        def no_proc(path: str) -> str:
            if str(path).startswith("/proc/"):
                raise FileNotFoundError(path)
            return readlink(path)

        monkeypatch.setattr(os, "readlink", no_proc)
    root, outside = folders(tmp_path)
    checked = images._inside  # pyright: ignore[reportPrivateUsage] -- the seam between the check and the open

    def check_then_swap(value: str, allowed: Sequence[Path], named: str) -> Path:
        target = checked(value, allowed, named)
        (root / "sub").rename(root / "moved")
        (root / "sub").symlink_to(outside, target_is_directory=True)
        return target

    monkeypatch.setattr(images, "_inside", check_then_swap)
    with pytest.raises(ToolFailure) as refused:
        images.prompt_images([str(root / "sub" / "shot.png")], [root])
    assert refused.value.code == "VALIDATION" and "outside the allowed directories" in refused.value.message


def test_a_link_to_a_folder_inside_the_roots_is_still_followed(tmp_path: Path) -> None:
    """P-14: the opened file is judged where it really is: a link whose target stays inside the roots is fine."""
    root, _ = folders(tmp_path)
    (root / "alias").symlink_to(root / "sub", target_is_directory=True)
    (image,) = images.prompt_images([str(root / "alias" / "shot.png")], [root])
    assert image.dimension is not None and (image.dimension.width, image.dimension.height) == (4, 3)


class _NoRoots:
    """The part of a call `images_of` uses: the client declared no roots (the working directory is allowed)."""

    async def roots(self) -> list[Path] | None:
        return None


@pytest.mark.anyio
async def test_reading_an_image_file_leaves_the_event_loop_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P-15: the open and read wait here until a task on the event loop lets them go; read on the loop itself
    they would block it, the task could never run, and the read would give up after its bounded wait."""
    root, _ = folders(tmp_path)
    monkeypatch.chdir(root)
    released = threading.Event()
    reader = images._read_opened  # pyright: ignore[reportPrivateUsage] -- the file work, held until released

    def held_read(target: Path, allowed: Sequence[Path], named: str) -> bytes:
        if not released.wait(timeout=5):
            raise AssertionError("the event loop never ran while the image was read")
        return reader(target, allowed, named)

    monkeypatch.setattr(images, "_read_opened", held_read)
    call = cast(Call, _NoRoots())  # only roots() is used

    async def release() -> None:
        released.set()

    attached: list[PromptImage] | None = None
    with anyio.fail_after(20):
        async with anyio.create_task_group() as group:
            group.start_soon(release)
            attached = await images.images_of(call, ["sub/shot.png"])
    assert attached is not None and len(attached) == 1
