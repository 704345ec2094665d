"""The delegation domain, shared by the faces (the MCP server, the person's commands, verify).

What decides what happens to the user's agents and money, whatever asked: creation and follow-up rules,
the models check, limits and slots, the store of paid acts, scans, waiting, activity, images, cleaning
of untrusted text, failures and time. It imports neither `mcp` nor `server` nor `terminal`; a face hands
it what it needs of a call (`core.call.Call`).

This is the front the faces use: they import what `__all__` names from `cursor_cloud_agents.core`, and
besides it only `core.call` (the protocol a face implements) and `core.timing` (every time and budget);
`tests/test_layering.py` holds it. What is not named here is the core's own business.

Each name loads on first use (PEP 562), from its module: a face that needs the store does not load the
fleet, the activity or the API client behind them, so the server answers `tools/list` before it loads the core
(a client pays a server's start-up at every launch)."""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from cursor_cloud_agents.core import consent, creation, failures, images, journal, models, queue, scan, seen, texts
    from cursor_cloud_agents.core.activity import ActivityCache, ActivitySummary, Replays, ToolState, event_time
    from cursor_cloud_agents.core.acts import Act
    from cursor_cloud_agents.core.applying import Applied, Mode, apply_change, clone_place, ready_to_change
    from cursor_cloud_agents.core.attempts import (
        MAX_ATTEMPTS,
        MIN_ATTEMPTS,
        AttemptModel,
        AttemptSet,
        SetResult,
        attempts_question,
        create_attempts,
        plan_set,
        price_hint,
        refuse_set_before_asking,
    )
    from cursor_cloud_agents.core.cache import Cache
    from cursor_cloud_agents.core.changes import (
        MAX_DIFF_BYTES,
        AgentBranch,
        AgentChange,
        ChangeSize,
        Diff,
        FileChange,
        GitPlaces,
        cache_dir_for,
        diff,
        measure,
        no_git,
        read_agent_change,
        read_change,
        read_target,
    )
    from cursor_cloud_agents.core.checks import CheckResult, not_configured, run_check
    from cursor_cloud_agents.core.compare import AttemptRow, Comparison, Kept, compare_attempts, keep
    from cursor_cloud_agents.core.consent import how_to_allow
    from cursor_cloud_agents.core.continuation import continuation_problem, refuse_continuation
    from cursor_cloud_agents.core.creation import RepoInput
    from cursor_cloud_agents.core.elapsed import end_line
    from cursor_cloud_agents.core.events import Event, Followed, follow_events, stamped
    from cursor_cloud_agents.core.failures import Code, ToolFailure, from_api_error
    from cursor_cloud_agents.core.fleet import Fleet, Query, Row
    from cursor_cloud_agents.core.follow import Follower
    from cursor_cloud_agents.core.followups import busy, follow_up_within_limits
    from cursor_cloud_agents.core.git import (
        Git,
        GitError,
        branch_problem,
        git_environment,
        remotes,
        repository_key,
        toplevel,
        without_cursor,
    )
    from cursor_cloud_agents.core.groups import GROUP_PATTERN, AttemptPlace, checked_group_id, find_group, placements
    from cursor_cloud_agents.core.images import MAX_IMAGES, Recognised, images_of, prompt_image
    from cursor_cloud_agents.core.ledger import use_of
    from cursor_cloud_agents.core.liveness import STALE_AFTER_MINUTES, count_stuck, fold_liveness, is_stale
    from cursor_cloud_agents.core.models import REASONING_PARAMS
    from cursor_cloud_agents.core.origins import acts_directory
    from cursor_cloud_agents.core.paid import (
        create_within_limits,
        limits_use_line,
        refuse_before_asking,
        store_failures,
    )
    from cursor_cloud_agents.core.reading import AgentRead
    from cursor_cloud_agents.core.scan import ScanPage
    from cursor_cloud_agents.core.seen import mark_seen
    from cursor_cloud_agents.core.settling import settled
    from cursor_cloud_agents.core.slots import SLOT_PAGE, TooManyAgents, read_listing
    from cursor_cloud_agents.core.state import ACTIVITY_ENTRIES, CoreState
    from cursor_cloud_agents.core.store import Store, StoreUnusable
    from cursor_cloud_agents.core.untrusted import CLIP_CHARS, clean, clean_data, clip, strip_hidden
    from cursor_cloud_agents.core.waiting import Pacer, with_progress
    from cursor_cloud_agents.core.watch import (
        IN_FLIGHT,
        MAX_RUNS,
        REPLAYS_AT_ONCE,
        Until,
        Watched,
        each_in_flight,
        watch,
    )

__all__ = [
    "ACTIVITY_ENTRIES",
    "CLIP_CHARS",
    "GROUP_PATTERN",
    "IN_FLIGHT",
    "MAX_ATTEMPTS",
    "MAX_DIFF_BYTES",
    "MAX_IMAGES",
    "MAX_RUNS",
    "MIN_ATTEMPTS",
    "REASONING_PARAMS",
    "REPLAYS_AT_ONCE",
    "SLOT_PAGE",
    "STALE_AFTER_MINUTES",
    "Act",
    "ActivityCache",
    "ActivitySummary",
    "AgentBranch",
    "AgentChange",
    "AgentRead",
    "Applied",
    "AttemptModel",
    "AttemptPlace",
    "AttemptRow",
    "AttemptSet",
    "Cache",
    "ChangeSize",
    "CheckResult",
    "Code",
    "Comparison",
    "CoreState",
    "Diff",
    "Event",
    "FileChange",
    "Fleet",
    "Followed",
    "Follower",
    "Git",
    "GitError",
    "GitPlaces",
    "Kept",
    "Mode",
    "Pacer",
    "Query",
    "Recognised",
    "Replays",
    "RepoInput",
    "Row",
    "ScanPage",
    "SetResult",
    "Store",
    "StoreUnusable",
    "TooManyAgents",
    "ToolFailure",
    "ToolState",
    "Until",
    "Watched",
    "acts_directory",
    "apply_change",
    "attempts_question",
    "branch_problem",
    "busy",
    "cache_dir_for",
    "checked_group_id",
    "clean",
    "clean_data",
    "clip",
    "clone_place",
    "compare_attempts",
    "consent",
    "continuation_problem",
    "count_stuck",
    "create_attempts",
    "create_within_limits",
    "creation",
    "diff",
    "each_in_flight",
    "end_line",
    "event_time",
    "failures",
    "find_group",
    "fold_liveness",
    "follow_events",
    "follow_up_within_limits",
    "from_api_error",
    "git_environment",
    "how_to_allow",
    "images",
    "images_of",
    "is_stale",
    "journal",
    "keep",
    "limits_use_line",
    "mark_seen",
    "measure",
    "models",
    "no_git",
    "not_configured",
    "placements",
    "plan_set",
    "price_hint",
    "prompt_image",
    "queue",
    "read_agent_change",
    "read_change",
    "read_listing",
    "read_target",
    "ready_to_change",
    "refuse_before_asking",
    "refuse_continuation",
    "refuse_set_before_asking",
    "remotes",
    "repository_key",
    "run_check",
    "scan",
    "seen",
    "settled",
    "stamped",
    "store_failures",
    "strip_hidden",
    "texts",
    "toplevel",
    "use_of",
    "watch",
    "with_progress",
    "without_cursor",
]

_HOMES: dict[str, str] = {
    **dict.fromkeys(
        ["consent", "creation", "failures", "images", "journal", "models", "queue", "scan", "seen", "texts"],
        "cursor_cloud_agents.core",
    ),
    **dict.fromkeys(
        ["ActivityCache", "ActivitySummary", "Replays", "ToolState", "event_time"], "cursor_cloud_agents.core.activity"
    ),
    **dict.fromkeys(["Act"], "cursor_cloud_agents.core.acts"),
    **dict.fromkeys(
        ["Applied", "Mode", "apply_change", "clone_place", "ready_to_change"], "cursor_cloud_agents.core.applying"
    ),
    **dict.fromkeys(
        [
            "MAX_ATTEMPTS",
            "MIN_ATTEMPTS",
            "AttemptModel",
            "AttemptSet",
            "SetResult",
            "attempts_question",
            "create_attempts",
            "plan_set",
            "price_hint",
            "refuse_set_before_asking",
        ],
        "cursor_cloud_agents.core.attempts",
    ),
    **dict.fromkeys(["Cache"], "cursor_cloud_agents.core.cache"),
    **dict.fromkeys(
        [
            "MAX_DIFF_BYTES",
            "AgentBranch",
            "AgentChange",
            "ChangeSize",
            "Diff",
            "FileChange",
            "GitPlaces",
            "cache_dir_for",
            "diff",
            "measure",
            "no_git",
            "read_agent_change",
            "read_change",
            "read_target",
        ],
        "cursor_cloud_agents.core.changes",
    ),
    **dict.fromkeys(["CheckResult", "not_configured", "run_check"], "cursor_cloud_agents.core.checks"),
    **dict.fromkeys(
        ["AttemptRow", "Comparison", "Kept", "compare_attempts", "keep"], "cursor_cloud_agents.core.compare"
    ),
    **dict.fromkeys(["how_to_allow"], "cursor_cloud_agents.core.consent"),
    **dict.fromkeys(["continuation_problem", "refuse_continuation"], "cursor_cloud_agents.core.continuation"),
    **dict.fromkeys(["RepoInput"], "cursor_cloud_agents.core.creation"),
    **dict.fromkeys(["end_line"], "cursor_cloud_agents.core.elapsed"),
    **dict.fromkeys(["Event", "Followed", "follow_events", "stamped"], "cursor_cloud_agents.core.events"),
    **dict.fromkeys(["Code", "ToolFailure", "from_api_error"], "cursor_cloud_agents.core.failures"),
    **dict.fromkeys(["Fleet", "Query", "Row"], "cursor_cloud_agents.core.fleet"),
    **dict.fromkeys(["Follower"], "cursor_cloud_agents.core.follow"),
    **dict.fromkeys(["busy", "follow_up_within_limits"], "cursor_cloud_agents.core.followups"),
    **dict.fromkeys(
        [
            "Git",
            "GitError",
            "branch_problem",
            "git_environment",
            "remotes",
            "repository_key",
            "toplevel",
            "without_cursor",
        ],
        "cursor_cloud_agents.core.git",
    ),
    **dict.fromkeys(
        ["GROUP_PATTERN", "AttemptPlace", "checked_group_id", "find_group", "placements"],
        "cursor_cloud_agents.core.groups",
    ),
    **dict.fromkeys(["MAX_IMAGES", "Recognised", "images_of", "prompt_image"], "cursor_cloud_agents.core.images"),
    **dict.fromkeys(["use_of"], "cursor_cloud_agents.core.ledger"),
    **dict.fromkeys(
        ["STALE_AFTER_MINUTES", "count_stuck", "fold_liveness", "is_stale"], "cursor_cloud_agents.core.liveness"
    ),
    **dict.fromkeys(["REASONING_PARAMS"], "cursor_cloud_agents.core.models"),
    **dict.fromkeys(["acts_directory"], "cursor_cloud_agents.core.origins"),
    **dict.fromkeys(
        ["create_within_limits", "limits_use_line", "refuse_before_asking", "store_failures"],
        "cursor_cloud_agents.core.paid",
    ),
    **dict.fromkeys(["AgentRead"], "cursor_cloud_agents.core.reading"),
    **dict.fromkeys(["ScanPage"], "cursor_cloud_agents.core.scan"),
    **dict.fromkeys(["mark_seen"], "cursor_cloud_agents.core.seen"),
    **dict.fromkeys(["settled"], "cursor_cloud_agents.core.settling"),
    **dict.fromkeys(["SLOT_PAGE", "TooManyAgents", "read_listing"], "cursor_cloud_agents.core.slots"),
    **dict.fromkeys(["ACTIVITY_ENTRIES", "CoreState"], "cursor_cloud_agents.core.state"),
    **dict.fromkeys(["Store", "StoreUnusable"], "cursor_cloud_agents.core.store"),
    **dict.fromkeys(
        ["CLIP_CHARS", "clean", "clean_data", "clip", "strip_hidden"], "cursor_cloud_agents.core.untrusted"
    ),
    **dict.fromkeys(["Pacer", "with_progress"], "cursor_cloud_agents.core.waiting"),
    **dict.fromkeys(
        ["IN_FLIGHT", "MAX_RUNS", "REPLAYS_AT_ONCE", "Until", "Watched", "each_in_flight", "watch"],
        "cursor_cloud_agents.core.watch",
    ),
}
"""The module each name of `__all__` is defined in; a submodule of the front's own has the front as its home."""


def __getattr__(name: str) -> _typing.Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if home == __name__:
        return _importlib.import_module(f"{__name__}.{name}")
    value = getattr(_importlib.import_module(home), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


# A function named as its own module is bound now: once anything imported `core.watch`, the import system
# would otherwise hand out the module for `from cursor_cloud_agents.core import watch`. It loads light (the
# API client appears in its annotations only).
from cursor_cloud_agents.core.watch import watch  # noqa: E402
