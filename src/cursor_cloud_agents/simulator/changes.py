"""What a simulated agent changes in its repository: the seed project, and named changes to it.

Plain data: a `Change` is a list of file operations (write bytes, delete, rename) that `gitremote.py` turns
into one real commit on the agent's branch. The seed project is small but real (a module, its tests, a
guide, an image), so a check command such as `python3 -m unittest` has something to pass or fail. Each named
change exercises one thing a reader of a diff must get right: many files, a binary file, a rename, a
deletion, text with hidden and bidi characters, a diff of several megabytes, a change whose tests fail.
"""

from __future__ import annotations

from dataclasses import dataclass

from .images import png


@dataclass(frozen=True)
class Write:
    """Write `content` at `path` (a new file, or a new version of one)."""

    path: str
    content: bytes


@dataclass(frozen=True)
class Delete:
    """Remove the file at `path`."""

    path: str


@dataclass(frozen=True)
class Rename:
    """Move the file at `old` to `new` (its content unchanged; a `Write` after it may edit it)."""

    old: str
    new: str


Operation = Write | Delete | Rename


@dataclass(frozen=True)
class Change:
    """One commit's worth of file operations, applied in order."""

    operations: tuple[Operation, ...]


_APP = b'''"""A tiny application the simulated agents work on."""

from util import shout


def greet(name: str) -> str:
    """A greeting for `name`."""
    return f"Hello, {name}!"


def greet_loudly(name: str) -> str:
    """The greeting, shouted."""
    return shout(greet(name))
'''
_UTIL = b'''"""Helpers of the application."""


def shout(text: str) -> str:
    """`text` in capitals, with an exclamation."""
    return text.upper()


def whisper(text: str) -> str:
    """`text` in lower case."""
    return text.lower()
'''
_TESTS = b"""import sys
import unittest

sys.path.insert(0, "src")

from app import greet, greet_loudly  # noqa: E402


class GreetTest(unittest.TestCase):
    def test_greets_by_name(self) -> None:
        self.assertEqual(greet("Ada"), "Hello, Ada!")

    def test_greets_loudly(self) -> None:
        self.assertEqual(greet_loudly("Ada"), "HELLO, ADA!")


if __name__ == "__main__":
    unittest.main()
"""
_README = b"# your-repo\n\nA small project the simulated agents change.\n\nRun its tests: `python3 -m unittest`.\n"
_GUIDE = b"# Guide\n\n" + b"".join(b"Step %d: read the code, then change it.\n" % n for n in range(1, 13))

SEED: dict[str, bytes] = {
    "README.md": _README,
    "src/app.py": _APP,
    "src/util.py": _UTIL,
    "tests/test_app.py": _TESTS,
    "manual/guide.md": _GUIDE,
    "assets/logo.png": png(16, 16),
}
"""The project on `main` of every stand-in repository."""

_SETUP = _README + b"\n## Setup\n\n1. Install Python 3.11 or later.\n2. Run `python3 -m unittest` from the root.\n"
_APP_WITH_FAREWELL = (
    _APP
    + b'''

def farewell(name: str) -> str:
    """A goodbye for `name`."""
    return f"Goodbye, {name}."
'''
)
_TESTS_IMPORTING_FAREWELL = _TESTS.replace(
    b"from app import greet, greet_loudly", b"from app import farewell, greet, greet_loudly"
)
_GOODBYE_TEST = (
    b"\n    def test_says_goodbye(self) -> None:\n" + b'        self.assertEqual(farewell("Ada"), "Goodbye, Ada.")\n'
)
_TESTS_WITH_FAREWELL = _TESTS_IMPORTING_FAREWELL.replace(b"\n\nif __name__", _GOODBYE_TEST + b"\n\nif __name__")
LARGE_LINES = 90_000
"""Lines of the large change's data file: about 3.6 MB of diff."""


def _large_file() -> bytes:
    return b"".join(
        b"%06d,measurement,%d.%03d,sensor-%02d,ok\n" % (n, n % 97, n % 1000, n % 40) for n in range(LARGE_LINES)
    )


def _many_files() -> tuple[Operation, ...]:
    modules = tuple(
        Write(f"src/plugins/plugin_{n:02d}.py", b'"""Plugin %d."""\n\nNAME = "plugin-%d"\n' % (n, n)) for n in range(40)
    )
    return (*modules, Write("README.md", _SETUP), Write("src/app.py", _APP_WITH_FAREWELL))


CHANGES: dict[str, Change] = {
    "small": Change(
        (
            Write("README.md", _SETUP),
            Write("src/app.py", _APP_WITH_FAREWELL),
            Write("tests/test_app.py", _TESTS_WITH_FAREWELL),
        )
    ),
    "lean": Change((Write("src/app.py", _APP_WITH_FAREWELL), Write("tests/test_app.py", _TESTS_WITH_FAREWELL))),
    "many-files": Change(_many_files()),
    "binary": Change((Write("assets/screenshot.png", png(48, 32)), Write("assets/logo.png", png(16, 24)))),
    "rename": Change(
        (
            Rename("src/util.py", "src/text.py"),
            Write("src/text.py", _UTIL.replace(b"Helpers of the application", b"Text helpers of the application")),
            Write("src/app.py", _APP.replace(b"from util import", b"from text import")),
        )
    ),
    "deletion": Change((Delete("manual/guide.md"), Write("README.md", _README.replace(b"A small", b"A tiny")))),
    "hidden-characters": Change(
        (
            Write(
                "README.md",
                _README + "\nNote\u200b for reviewers: \u202eok siht\u202c is fine.\u2066\n".encode(),
            ),
        )
    ),
    "large": Change((Write("data/measurements.csv", _large_file()),)),
    "failing": Change((Write("src/app.py", _APP.replace(b'f"Hello, {name}!"', b'f"Hi, {name}"')),)),
}
"""The named changes a run script can make (`RunScript.change`)."""
