"""A terminal program under tmux: start it, type into it, read its screen, wait for a text on it."""

from __future__ import annotations

import shlex
import subprocess
import time
from pathlib import Path


class Pane:
    def __init__(self, name: str, launcher: Path) -> None:
        self.name = name
        subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "200", "-y", "50", str(launcher)], check=True)

    @staticmethod
    def launcher(path: Path, env: dict[str, str], cwd: Path, command: list[str]) -> Path:
        """A shell script that sets exactly `env` and runs `command` in `cwd` (tmux's server keeps its own env)."""
        exports = "".join(f"export {name}={shlex.quote(value)}\n" for name, value in env.items())
        body = f"#!/bin/sh\ncd {shlex.quote(str(cwd))}\n{exports}exec {shlex.join(command)}\n"
        path.write_text(body)
        path.chmod(0o755)
        return path

    def screen(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def alive(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode == 0

    def type(self, text: str, enter: bool = True) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", text], check=True)
        if enter:
            time.sleep(0.3)
            subprocess.run(["tmux", "send-keys", "-t", self.name, "Enter"], check=True)

    def key(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, text: str, seconds: float) -> bool:
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            if text in self.screen():
                return True
            time.sleep(0.5)
        return False

    def wait_for_any(self, texts: tuple[str, ...], seconds: float) -> bool:
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            screen = self.screen()
            if any(text in screen for text in texts):
                return True
            time.sleep(0.5)
        return False

    def kill(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)
