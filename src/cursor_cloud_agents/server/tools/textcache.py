"""The last few artifact texts read, so that reading one page by page downloads it once.

A text artifact can be 5 MiB and a page is about 12,000 characters: without this, reading it whole
would download it hundreds of times. The texts kept are already cleaned and masked; a few at most,
for a few minutes (a presigned link lasts 15), one cache per server. Pages cut from one copy are
also consistent with each other, even if the agent rewrites the file meanwhile.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict

from cursor_cloud_agents.server.toolkit import Toolkit

ENTRIES = 4
SECONDS = 300.0

_caches: weakref.WeakKeyDictionary[Toolkit, OrderedDict[tuple[str, str], tuple[float, str]]] = (
    weakref.WeakKeyDictionary()
)


def recall(kit: Toolkit, agent_id: str, path: str) -> str | None:
    """The text of this artifact read in the last few minutes, or None."""
    cache = _caches.get(kit)
    kept = None if cache is None else cache.get((agent_id, path))
    if kept is None or kit.now() - kept[0] > SECONDS:
        return None
    return kept[1]


def remember(kit: Toolkit, agent_id: str, path: str, text: str) -> None:
    """Keep this artifact's text, dropping the oldest beyond the few kept."""
    cache = _caches.setdefault(kit, OrderedDict())
    cache[(agent_id, path)] = (kit.now(), text)
    cache.move_to_end((agent_id, path))
    while len(cache) > ENTRIES:
        cache.popitem(last=False)
