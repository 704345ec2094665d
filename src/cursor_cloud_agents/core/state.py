"""What lives as long as a face (the server, or one terminal command): settings, clock, API client, store, caches.

One `CoreState` (the server's `ServerState` adds its answer builder) is built where the face is built
and handed down; nothing is kept in module-level state. The API client is opened per connection by the
server's lifespan (or by the command) and attached here; everything else is made once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.review.changes import GitPlaces
from cursor_cloud_agents.core.spend.limits import Limits
from cursor_cloud_agents.core.spend.origins import acts_directory
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.core.timing import ARTIFACT_TEXT_SECONDS, DIFF_TEXT_SECONDS, MODELS_SECONDS, Clock
from cursor_cloud_agents.redact import Redactor

if TYPE_CHECKING:
    from cursor_cloud_agents.api import CursorClient, Model
    from cursor_cloud_agents.core.review.changes import GitPlaces
    from cursor_cloud_agents.core.runs.activity import KnownActivity

ACTIVITY_ENTRIES = 512
"""Complete activity summaries of ended runs kept (they never change: idle time is recomputed)."""
ARTIFACT_TEXT_ENTRIES = 4
DIFF_ENTRIES = 64
"""Diffs measured (their length, hidden characters, cut or not: three numbers each, never their text)."""


class QueueBell:
    """Rung by a process when it queues a follow-up, so that its own queue keeper looks at once
    (`core.queue.keep`); other processes' follow-ups are found in the store."""

    def __init__(self) -> None:
        self._event: anyio.Event | None = None

    def ring(self) -> None:
        if self._event is not None:
            self._event.set()

    async def wait(self) -> None:
        if self._event is None or self._event.is_set():
            self._event = anyio.Event()  # made here: an anyio event needs a running event loop
        await self._event.wait()


@dataclass
class CoreState:
    """The state of one face, for its whole life."""

    settings: Settings
    redactor: Redactor
    clock: Clock = field(default_factory=Clock)
    client: CursorClient | None = None
    git_places: GitPlaces | None = None
    """Where git works on agents' repositories (the composition root's choice; None: nowhere, no change read)."""
    store: Store = field(init=False)
    """The store of paid acts, the one handle on its file: the journal and the ledger are rules over its readings."""
    deciding: anyio.Lock = field(init=False)
    """Held by a paid creation from its look for an earlier identical one until it is written as sent, so that
    two identical calls at once are one act (the second re-sends the first's id), not two."""
    limits: Limits = field(init=False)
    models: Cache[str, list[Model]] = field(init=False)
    activity: Cache[tuple[str, str], KnownActivity] = field(init=False)
    artifact_texts: Cache[tuple[str, str], str] = field(init=False)
    diffs: Cache[tuple[str, str, str, str], tuple[int, int, bool]] = field(init=False)
    """Diffs measured by (repository, base, head, path): their prepared length, hidden characters removed, cut
    or not. Never a diff's text: each page is read from git again (`changes.diff_page`), so memory stays
    bounded whatever the diff's size."""
    queue_bell: QueueBell = field(default_factory=QueueBell)

    def __post_init__(self) -> None:
        # One store per API origin (core/spend/origins.py): practice and simulated worlds never count against
        # the real API.
        self.store = Store(acts_directory(self.settings))
        self.deciding = anyio.Lock()
        self.limits = Limits(self.settings, self.store, self.clock)
        self.models = Cache(self.clock, 1, MODELS_SECONDS)
        self.activity = Cache(self.clock, ACTIVITY_ENTRIES)
        self.artifact_texts = Cache(self.clock, ARTIFACT_TEXT_ENTRIES, ARTIFACT_TEXT_SECONDS)
        self.diffs = Cache(self.clock, DIFF_ENTRIES, DIFF_TEXT_SECONDS)

    @property
    def api(self) -> CursorClient:
        """The API client of this connection (opened by the server's lifespan)."""
        if self.client is None:
            raise RuntimeError("the API client is not open")
        return self.client
