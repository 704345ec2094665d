"""The delegation domain, shared by the faces (the MCP server, the person's commands, verify).

What decides what happens to the user's agents and money, whatever asked: creation and follow-up rules,
the models check, limits and slots, the store of paid acts, scans, waiting, activity, images, cleaning
of untrusted text, failures and time. It imports neither `mcp` nor `server` nor `terminal`; a face hands
it what it needs of a call (`core.call.Call`).

This is the front the faces use: they import what `__all__` names from `cursor_cloud_agents.core`, and
besides it only `core.call` (the protocol a face implements) and `core.timing` (every time and budget);
`tests/test_layering.py` holds it. What is not named here is the core's own business.
"""

from cursor_cloud_agents.core import consent, creation, failures, images, journal, models, queue, scan, seen
from cursor_cloud_agents.core.activity import ActivityCache, ActivitySummary, ToolState, event_time
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.consent import how_to_allow
from cursor_cloud_agents.core.continuation import continuation_problem, refuse_continuation
from cursor_cloud_agents.core.creation import RepoInput
from cursor_cloud_agents.core.elapsed import end_line
from cursor_cloud_agents.core.events import Event, Followed, follow, stamped
from cursor_cloud_agents.core.failures import Code, ToolFailure, from_api_error
from cursor_cloud_agents.core.fleet import Fleet, Query, Row
from cursor_cloud_agents.core.followups import busy, follow_up_within_limits
from cursor_cloud_agents.core.images import MAX_IMAGES, Recognised, images_of, prompt_image
from cursor_cloud_agents.core.ledger import use_of
from cursor_cloud_agents.core.liveness import STALE_AFTER_MINUTES, count_stuck, fold_liveness, is_stale
from cursor_cloud_agents.core.models import REASONING_PARAMS
from cursor_cloud_agents.core.paid import create_within_limits, limits_use_line, refuse_before_asking
from cursor_cloud_agents.core.reading import AgentRead
from cursor_cloud_agents.core.scan import ScanPage
from cursor_cloud_agents.core.seen import mark_seen
from cursor_cloud_agents.core.slots import SLOT_PAGE, TooManyAgents, read_listing
from cursor_cloud_agents.core.state import ACTIVITY_ENTRIES, CoreState
from cursor_cloud_agents.core.store import Store, StoreUnusable
from cursor_cloud_agents.core.untrusted import CLIP_CHARS, clean, clean_data, clip, strip_hidden
from cursor_cloud_agents.core.waiting import Pacer, with_progress
from cursor_cloud_agents.core.watch import IN_FLIGHT, MAX_RUNS, REPLAYS_AT_ONCE, Until, Watched, each_in_flight, watch

__all__ = [
    "Event",
    "Followed",
    "end_line",
    "follow",
    "queue",
    "stamped",
    "ACTIVITY_ENTRIES",
    "CLIP_CHARS",
    "IN_FLIGHT",
    "MAX_IMAGES",
    "MAX_RUNS",
    "REASONING_PARAMS",
    "REPLAYS_AT_ONCE",
    "SLOT_PAGE",
    "STALE_AFTER_MINUTES",
    "Act",
    "ActivityCache",
    "ActivitySummary",
    "AgentRead",
    "Cache",
    "Code",
    "CoreState",
    "Fleet",
    "Pacer",
    "Query",
    "Recognised",
    "RepoInput",
    "Row",
    "ScanPage",
    "Store",
    "StoreUnusable",
    "ToolFailure",
    "ToolState",
    "TooManyAgents",
    "Until",
    "Watched",
    "busy",
    "clean",
    "clean_data",
    "clip",
    "consent",
    "continuation_problem",
    "count_stuck",
    "create_within_limits",
    "creation",
    "each_in_flight",
    "event_time",
    "failures",
    "fold_liveness",
    "follow_up_within_limits",
    "from_api_error",
    "how_to_allow",
    "images",
    "images_of",
    "is_stale",
    "journal",
    "limits_use_line",
    "mark_seen",
    "models",
    "prompt_image",
    "read_listing",
    "refuse_before_asking",
    "refuse_continuation",
    "scan",
    "seen",
    "strip_hidden",
    "use_of",
    "watch",
    "with_progress",
]
