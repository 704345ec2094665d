"""`--notify`: a desktop notification per ended run, where the machine has one, else the terminal's bell.

`notify-send` (Linux desktops) or `osascript` (macOS), run without a shell, the text passed as an argument
(cleaned of control characters: part of it is agent-written); none of them: a bell on stderr (stdout may be a
JSON stream). One notification per run, never two: a run told twice (a wait after an event) is not repeated.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio

from cursor_cloud_agents.core import clean, clip

NOTIFY_SECONDS = 5.0
"""A notifier that does not return within this is left behind (a desktop without a notification daemon)."""
TITLE = "Cursor agent"


def _ring_bell() -> None:
    sys.stderr.write("\a")
    sys.stderr.flush()


@dataclass
class Notifier:
    """Tells the person of each ended run once."""

    which: Callable[[str], str | None] = shutil.which
    bell: Callable[[], None] = field(default=lambda: _ring_bell())
    told: set[str] = field(default_factory=set[str])

    def command(self, body: str) -> list[str] | None:
        """The notifier's command line, None when the machine has none."""
        if self.which("notify-send"):
            return ["notify-send", "--app-name=cursor-cloud-agents", TITLE, body]
        if self.which("osascript"):
            quoted = body.replace("\\", "\\\\").replace('"', '\\"')
            return ["osascript", "-e", f'display notification "{quoted}" with title "{TITLE}"']
        return None

    async def ended(self, run_id: str, message: str) -> None:
        """Notify `message` for `run_id`, unless it was told already."""
        if run_id in self.told:
            return
        self.told.add(run_id)
        body = clip(clean(message).replace("\n", " "), 200)[0]
        command = self.command(body)
        if command is None:
            self.bell()
            return
        with anyio.move_on_after(NOTIFY_SECONDS):
            try:
                await anyio.run_process(command, check=False)
            except OSError:
                self.bell()
