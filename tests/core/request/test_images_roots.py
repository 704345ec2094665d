"""A client root that cannot be used as a folder is no folder, never an internal error.

Issue 12's images: only files under the client's roots; a broken root allows nothing (P-04's spirit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.request.images import prompt_images
from cursor_cloud_agents.simulator.images import png


def unusable_root(kind: str, tmp_path: Path) -> Path:
    """A root as `roots/list` can give it: `file:///x%00` decodes to a NUL byte; a folder may be a symlink loop."""
    if kind == "nul":
        return tmp_path / "root\0x"
    looped = tmp_path / "looped"
    looped.symlink_to(looped)
    return looped


@pytest.mark.parametrize("kind", ["nul", "symlink-loop"])
def test_an_unusable_client_root_is_left_out_and_the_others_still_allow_their_files(tmp_path: Path, kind: str) -> None:
    """The image is judged against the usable roots; with none left the refusal is VALIDATION, never a
    ValueError or RuntimeError (which the toolkit answers as INTERNAL)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "shot.png").write_bytes(png(4, 3))
    bad = unusable_root(kind, tmp_path)
    (image,) = prompt_images([str(root / "shot.png")], [bad, root])
    assert image.mime_type == "image/png"
    with pytest.raises(ToolFailure) as refused:
        prompt_images(["shot.png"], [bad])
    assert refused.value.code == "VALIDATION"
