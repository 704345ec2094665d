"""Delegate work to Cursor Cloud Agents: API client, simulator and stdio MCP server.

Also the loader of the lazy fronts (`api`, `core`, `server`, `verify`): a front states each name it exports
once, in its `if TYPE_CHECKING:` imports, which pyright reads; `Front` reads the same lines at run time and
derives `__all__` and where each name loads from on first use (PEP 562). A name cannot be typed and not
loadable, or exported and not typed (issue 45; `tests/test_fronts.py` holds the reading equal to Python's own
parse of the block)."""

import importlib as _importlib
import re as _re

__version__ = "0.1.0"

_TYPED_BLOCK = _re.compile(r"^if (?:_typing\.)?TYPE_CHECKING:\n((?:(?:[ \t]+.*)?\n)+)", _re.MULTILINE)
_FROM_IMPORT = _re.compile(r"from ([\w.]+) import (?:\(([^)]*)\)|(.+))")


def front_homes(source: str) -> dict[str, str]:
    """Each name a front's source imports under `if TYPE_CHECKING:`, with the module it comes from (the front
    itself for a submodule of its own), in the order written.

    Raises:
        ImportError: the source has no such block, or imports a name under another (`as`), which the front
            could not load under the name pyright sees.
    """
    block = _TYPED_BLOCK.search(source)
    if block is None:
        raise ImportError("a front names its exports in an `if TYPE_CHECKING:` block")
    homes: dict[str, str] = {}
    for match in _FROM_IMPORT.finditer(block.group(1)):
        written = match.group(2) if match.group(2) is not None else match.group(3)
        for line in written.splitlines():
            for name in line.split("#", 1)[0].split(","):
                if " as " in name:
                    raise ImportError(f"a front exports a name as itself, not {name.strip()!r}")
                if name.strip():
                    homes[name.strip()] = match.group(1)
    return homes


class Front:
    """One lazy front: its names read from its typed imports, `__all__` set from them, each loaded on first use."""

    def __init__(self, package: str, path: str, namespace: dict[str, object]) -> None:
        with open(path, encoding="utf-8") as source:
            self.homes = front_homes(source.read())
        self._package = package
        self._namespace = namespace
        namespace["__all__"] = list(self.homes)

    def load(self, name: str) -> object:
        """The value of `name` from its module, kept in the front so that the next lookup is a plain attribute.

        A home that is the front itself, or a room whose module of that name is not loaded yet (a room's front
        is a docstring, it loads nothing), gives the submodule."""
        home = self.homes.get(name)
        if home is None:
            raise AttributeError(f"module {self._package!r} has no attribute {name!r}")
        module = _importlib.import_module(home)
        if home != self._package and hasattr(module, name):
            value = getattr(module, name)
        else:
            value = _importlib.import_module(f"{home}.{name}")
        self._namespace[name] = value
        return value
