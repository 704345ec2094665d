"""Switches for the API's observed quirks; each defaults to the behaviour observed live (docs/api-contract.md §5)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Quirks:
    """Observed behaviours, each a switch so tests can check both sides of an uncertain fact."""

    running_updated_at_frozen: bool = True
    """A RUNNING run keeps the `updatedAt` of its creation (quirk 2); False moves it to the start."""
    error_runs_without_cause: bool = True
    """ERROR runs carry neither `error` nor `result` (quirk 3); False adds both."""
    unlisted_artifacts: bool = True
    """Artifacts scripted `listed=False` are missing from the list and 404 on download (quirk 10)."""
    accept_full_sha_starting_ref: bool = True
    """Full-SHA `startingRef`: refused on 2026-10-01, accepted on 2026-10-19 (quirk 1); the latest wins."""
    usage_cost_delay_seconds: float = 30.0
    """Cost is eventually consistent: it appears this long after the run ended (0 = at once)."""
    exhausted_usage_as_rate_limit: bool = True
    """Exhausted included usage answers 429 `rate_limit_exceeded` (quirk 11); False: `usage_limit_exceeded`."""
    usage_endpoint_available: bool = True
    """False: `GET /v1/agents/{id}/usage` answers 403 `feature_unavailable` (early access)."""
    no_repo_agents_enabled: bool = True
    """False: creating an agent without repos and env answers 403 for this account."""
    repositories_rate_limited: bool = True
    """`GET /v1/repositories`: 1 per minute and 30 per hour per key, else 429."""
    stream_retention_seconds: int = 86400
    """`X-Cursor-Stream-Retention-Seconds`; streams of runs ended longer ago answer 410."""
    heartbeat_first_seconds: float = 33.0
    """First heartbeat after connecting (observed 30-36 s), on the world clock."""
    heartbeat_interval_seconds: float = 30.0
    """Heartbeats after the first one (undocumented; 30 s assumed)."""
    cancel_delay_seconds: float = 2.0
    """Cancellation is asynchronous: the run still reads RUNNING this long after the 200 (quirk 12)."""
    queued_seconds: float = 0.0
    """A new run reads `QUEUED` (accepted, not started: the SDK's internals name it) this long before `CREATING`;
    0 (the contract's documented behaviour) never shows it."""
    cursor_ttl_seconds: float | None = None
    """Paging cursors older than this answer 400 `cursor_expired` (a code seen since the contract was
    written; lifetime unknown); None: cursors never expire."""
    ended_agents_listed_active: bool = False
    """An agent whose latest run has ended still reads `ACTIVE` (listed and read by id), as the docs allow
    (docs/api-contract.md §2a: ACTIVE also means waiting on background work; the status has meant "not
    archived" in places); False (the default): `IDLE` once its latest run ends. The plan's own limit of agents
    at once still counts the runs."""
    creation_seconds: float = 0.0
    """`POST /v1/agents` answers this long after it arrived, on the world clock, and the agent exists only
    from then on (quirk 16: a real create took over 40 s). Meanwhile reads of its id answer 404 and a
    second POST with the same `agentId` answers 409 `agent_id_conflict` (the id is taken at once)."""
    simplified_frames_share_ids: bool = False
    """Each simplified frame (`assistant`, `thinking`, `tool_call`) carries the id of the `interaction_update`
    it comes from, as docs/api-contract.md §3.11 infers (M); False (the default): every frame but `done` has its own id.
    A `Last-Event-ID` still sends only the frames with a greater id (docs/api-contract.md §3.11: "events after that
    id"), the reading
    hardest for a client: one resuming after the first of two frames sharing an id never gets the second."""
