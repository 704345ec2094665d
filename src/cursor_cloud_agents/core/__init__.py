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
(a client pays a server's start-up at every launch).

The core is in rooms by subject: `spend/` (a paid act sent once, within the limits, with consent),
`attempts/` (several attempts at one task), `runs/` (waiting on runs, their streams, activity and the
fleet), `review/` (an agent's change brought home with git), `request/` (what a new agent is sent); at the
root, what they all share: time, the call, failures, the face's state, the store of paid acts and its acts,
the cache and the cleaning of untrusted text."""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from cursor_cloud_agents.core import failures
    from cursor_cloud_agents.core.acts import Act
    from cursor_cloud_agents.core.advice import Advice, Step
    from cursor_cloud_agents.core.attempts.attempts import (
        MAX_ATTEMPTS,
        MIN_ATTEMPTS,
        AttemptModel,
        AttemptSet,
        SetResult,
        create_attempts,
        plan_set,
        price_hint,
    )
    from cursor_cloud_agents.core.attempts.compare import AttemptRow, Comparison, Kept, compare_attempts, keep
    from cursor_cloud_agents.core.attempts.groups import (
        GROUP_PATTERN,
        AttemptPlace,
        checked_group_id,
        find_group,
        placements,
    )
    from cursor_cloud_agents.core.cache import Cache
    from cursor_cloud_agents.core.failures import Code, ToolFailure, from_api_error
    from cursor_cloud_agents.core.pr.control import read_watch, start_watch, stop_watch
    from cursor_cloud_agents.core.pr.decide import verdict
    from cursor_cloud_agents.core.pr.keeper import keep_watches
    from cursor_cloud_agents.core.pr.record import (
        WatchRecord,
        describe_watch,
        fresh_watch,
        load_watch,
        save_watch,
        watches,
        watches_kept,
    )
    from cursor_cloud_agents.core.pr.resolve import agent_and_pr, names_a_pr, pr_of, resolve_agent
    from cursor_cloud_agents.core.pr.watching import PrWatch, WatchCannotGoOn, keep_watching
    from cursor_cloud_agents.core.request import creation, images, models, texts
    from cursor_cloud_agents.core.request.builder import (
        AgentAsked,
        agent_request,
        follow_up_request,
        new_agent_request,
        prompt_of,
        run_request,
    )
    from cursor_cloud_agents.core.request.creation import RepoInput
    from cursor_cloud_agents.core.request.images import MAX_IMAGES, Recognised, images_of, prompt_image
    from cursor_cloud_agents.core.request.models import REASONING_PARAMS
    from cursor_cloud_agents.core.review import checkout, refs, reviewed
    from cursor_cloud_agents.core.review.applying import (
        Applied,
        Mode,
        Plan,
        apply_change,
        carry_out,
        clone_place,
        plan_apply,
        ready_to_change,
    )
    from cursor_cloud_agents.core.review.changes import (
        MAX_DIFF_BYTES,
        AgentBranch,
        AgentChange,
        ChangeSize,
        Diff,
        DiffPage,
        FileChange,
        GitPlaces,
        Place,
        cache_dir_for,
        default_branch,
        diff,
        diff_page,
        measure,
        no_git,
        read_agent_change,
        read_change,
        read_target,
        stream_diff,
    )
    from cursor_cloud_agents.core.review.checks import CheckResult, CheckRules, not_configured, run_check
    from cursor_cloud_agents.core.review.git import (
        Git,
        GitError,
        branch_problem,
        git_environment,
        remotes,
        repository_key,
        toplevel,
        without_cursor,
    )
    from cursor_cloud_agents.core.runs import scan, seen
    from cursor_cloud_agents.core.runs.activity import ActivityCache, ActivitySummary, Replays, ToolState, event_time
    from cursor_cloud_agents.core.runs.ceiling import cancel_past_ceiling, keep_ceilings, sweep_ceilings
    from cursor_cloud_agents.core.runs.elapsed import end_line
    from cursor_cloud_agents.core.runs.fleet import Fleet, Query, Row
    from cursor_cloud_agents.core.runs.fleet_events import Event, Followed, follow_events, stamped
    from cursor_cloud_agents.core.runs.follow import Follower
    from cursor_cloud_agents.core.runs.liveness import STALE_AFTER_MINUTES, count_stuck, fold_liveness, is_stale
    from cursor_cloud_agents.core.runs.reading import AgentRead
    from cursor_cloud_agents.core.runs.scan import ScanPage
    from cursor_cloud_agents.core.runs.seen import mark_seen
    from cursor_cloud_agents.core.runs.tidy import Tidy, TidyPlan, archive_saved, plan_tidy
    from cursor_cloud_agents.core.runs.waiting import Pacer, with_progress
    from cursor_cloud_agents.core.runs.watch import (
        IN_FLIGHT,
        MAX_RUNS,
        REPLAYS_AT_ONCE,
        Until,
        Watched,
        each_in_flight,
        watch,
    )
    from cursor_cloud_agents.core.spend import consent, journal, queue
    from cursor_cloud_agents.core.spend.consent import how_to_allow
    from cursor_cloud_agents.core.spend.followups import busy, follow_up_within_limits
    from cursor_cloud_agents.core.spend.ledger import use_of
    from cursor_cloud_agents.core.spend.origins import acts_directory
    from cursor_cloud_agents.core.spend.paid import create_within_limits, store_failures
    from cursor_cloud_agents.core.spend.settling import settled
    from cursor_cloud_agents.core.spend.slots import SLOT_PAGE, TooManyAgents, read_listing
    from cursor_cloud_agents.core.state import ACTIVITY_ENTRIES, CoreState
    from cursor_cloud_agents.core.store import Store, StoreUnusable
    from cursor_cloud_agents.core.untrusted import CLIP_CHARS, clean, clean_data, clip, strip_hidden

__all__ = [
    "acts_directory",
    "PrWatch",
    "Tidy",
    "TidyPlan",
    "WatchCannotGoOn",
    "WatchRecord",
    "agent_and_pr",
    "archive_saved",
    "cancel_past_ceiling",
    "describe_watch",
    "fresh_watch",
    "keep_ceilings",
    "keep_watches",
    "keep_watching",
    "load_watch",
    "names_a_pr",
    "plan_tidy",
    "pr_of",
    "read_watch",
    "resolve_agent",
    "save_watch",
    "start_watch",
    "stop_watch",
    "sweep_ceilings",
    "verdict",
    "watches",
    "watches_kept",
    "DiffPage",
    "Plan",
    "carry_out",
    "checkout",
    "diff_page",
    "plan_apply",
    "refs",
    "reviewed",
    "stream_diff",
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
    "Advice",
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
    "CheckRules",
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
    "Place",
    "Kept",
    "Mode",
    "AgentAsked",
    "Pacer",
    "Query",
    "Recognised",
    "Replays",
    "RepoInput",
    "Row",
    "ScanPage",
    "SetResult",
    "Store",
    "Step",
    "StoreUnusable",
    "TooManyAgents",
    "ToolFailure",
    "ToolState",
    "Until",
    "Watched",
    "agent_request",
    "apply_change",
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
    "count_stuck",
    "create_attempts",
    "create_within_limits",
    "creation",
    "default_branch",
    "diff",
    "each_in_flight",
    "end_line",
    "event_time",
    "failures",
    "find_group",
    "fold_liveness",
    "follow_events",
    "follow_up_request",
    "follow_up_within_limits",
    "from_api_error",
    "git_environment",
    "how_to_allow",
    "images",
    "images_of",
    "is_stale",
    "journal",
    "keep",
    "mark_seen",
    "new_agent_request",
    "measure",
    "models",
    "no_git",
    "not_configured",
    "placements",
    "plan_set",
    "price_hint",
    "prompt_image",
    "prompt_of",
    "run_request",
    "queue",
    "read_agent_change",
    "read_change",
    "read_listing",
    "read_target",
    "ready_to_change",
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
    **dict.fromkeys(["failures"], "cursor_cloud_agents.core"),
    **dict.fromkeys(["creation", "images", "models", "texts"], "cursor_cloud_agents.core.request"),
    **dict.fromkeys(["scan", "seen"], "cursor_cloud_agents.core.runs"),
    **dict.fromkeys(["consent", "journal", "queue"], "cursor_cloud_agents.core.spend"),
    **dict.fromkeys(["acts_directory"], "cursor_cloud_agents.core.spend.origins"),
    **dict.fromkeys(
        ["cancel_past_ceiling", "keep_ceilings", "sweep_ceilings"], "cursor_cloud_agents.core.runs.ceiling"
    ),
    **dict.fromkeys(["read_watch", "start_watch", "stop_watch"], "cursor_cloud_agents.core.pr.control"),
    **dict.fromkeys(["verdict"], "cursor_cloud_agents.core.pr.decide"),
    **dict.fromkeys(["keep_watches"], "cursor_cloud_agents.core.pr.keeper"),
    **dict.fromkeys(
        ["WatchRecord", "describe_watch", "fresh_watch", "load_watch", "save_watch", "watches", "watches_kept"],
        "cursor_cloud_agents.core.pr.record",
    ),
    **dict.fromkeys(["agent_and_pr", "names_a_pr", "pr_of", "resolve_agent"], "cursor_cloud_agents.core.pr.resolve"),
    **dict.fromkeys(["PrWatch", "WatchCannotGoOn", "keep_watching"], "cursor_cloud_agents.core.pr.watching"),
    **dict.fromkeys(["Tidy", "TidyPlan", "archive_saved", "plan_tidy"], "cursor_cloud_agents.core.runs.tidy"),
    **dict.fromkeys(["checkout", "refs", "reviewed"], "cursor_cloud_agents.core.review"),
    **dict.fromkeys(
        ["ActivityCache", "ActivitySummary", "Replays", "ToolState", "event_time"],
        "cursor_cloud_agents.core.runs.activity",
    ),
    **dict.fromkeys(["Act"], "cursor_cloud_agents.core.acts"),
    **dict.fromkeys(
        ["Applied", "Mode", "Plan", "apply_change", "carry_out", "clone_place", "plan_apply", "ready_to_change"],
        "cursor_cloud_agents.core.review.applying",
    ),
    **dict.fromkeys(
        [
            "MAX_ATTEMPTS",
            "MIN_ATTEMPTS",
            "AttemptModel",
            "AttemptSet",
            "SetResult",
            "create_attempts",
            "plan_set",
            "price_hint",
        ],
        "cursor_cloud_agents.core.attempts.attempts",
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
            "Place",
            "cache_dir_for",
            "default_branch",
            "DiffPage",
            "diff",
            "diff_page",
            "measure",
            "no_git",
            "read_agent_change",
            "read_change",
            "read_target",
            "stream_diff",
        ],
        "cursor_cloud_agents.core.review.changes",
    ),
    **dict.fromkeys(
        ["CheckResult", "CheckRules", "not_configured", "run_check"], "cursor_cloud_agents.core.review.checks"
    ),
    **dict.fromkeys(
        ["AttemptRow", "Comparison", "Kept", "compare_attempts", "keep"], "cursor_cloud_agents.core.attempts.compare"
    ),
    **dict.fromkeys(["how_to_allow"], "cursor_cloud_agents.core.spend.consent"),
    **dict.fromkeys(["Advice", "Step"], "cursor_cloud_agents.core.advice"),
    **dict.fromkeys(
        ["AgentAsked", "agent_request", "follow_up_request", "new_agent_request", "prompt_of", "run_request"],
        "cursor_cloud_agents.core.request.builder",
    ),
    **dict.fromkeys(["RepoInput"], "cursor_cloud_agents.core.request.creation"),
    **dict.fromkeys(["end_line"], "cursor_cloud_agents.core.runs.elapsed"),
    **dict.fromkeys(["Event", "Followed", "follow_events", "stamped"], "cursor_cloud_agents.core.runs.fleet_events"),
    **dict.fromkeys(["Code", "ToolFailure", "from_api_error"], "cursor_cloud_agents.core.failures"),
    **dict.fromkeys(["Fleet", "Query", "Row"], "cursor_cloud_agents.core.runs.fleet"),
    **dict.fromkeys(["Follower"], "cursor_cloud_agents.core.runs.follow"),
    **dict.fromkeys(["busy", "follow_up_within_limits"], "cursor_cloud_agents.core.spend.followups"),
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
        "cursor_cloud_agents.core.review.git",
    ),
    **dict.fromkeys(
        ["GROUP_PATTERN", "AttemptPlace", "checked_group_id", "find_group", "placements"],
        "cursor_cloud_agents.core.attempts.groups",
    ),
    **dict.fromkeys(
        ["MAX_IMAGES", "Recognised", "images_of", "prompt_image"], "cursor_cloud_agents.core.request.images"
    ),
    **dict.fromkeys(["use_of"], "cursor_cloud_agents.core.spend.ledger"),
    **dict.fromkeys(
        ["STALE_AFTER_MINUTES", "count_stuck", "fold_liveness", "is_stale"], "cursor_cloud_agents.core.runs.liveness"
    ),
    **dict.fromkeys(["REASONING_PARAMS"], "cursor_cloud_agents.core.request.models"),
    **dict.fromkeys(
        ["create_within_limits", "store_failures"],
        "cursor_cloud_agents.core.spend.paid",
    ),
    **dict.fromkeys(["AgentRead"], "cursor_cloud_agents.core.runs.reading"),
    **dict.fromkeys(["ScanPage"], "cursor_cloud_agents.core.runs.scan"),
    **dict.fromkeys(["mark_seen"], "cursor_cloud_agents.core.runs.seen"),
    **dict.fromkeys(["settled"], "cursor_cloud_agents.core.spend.settling"),
    **dict.fromkeys(["SLOT_PAGE", "TooManyAgents", "read_listing"], "cursor_cloud_agents.core.spend.slots"),
    **dict.fromkeys(["ACTIVITY_ENTRIES", "CoreState"], "cursor_cloud_agents.core.state"),
    **dict.fromkeys(["Store", "StoreUnusable"], "cursor_cloud_agents.core.store"),
    **dict.fromkeys(
        ["CLIP_CHARS", "clean", "clean_data", "clip", "strip_hidden"], "cursor_cloud_agents.core.untrusted"
    ),
    **dict.fromkeys(["Pacer", "with_progress"], "cursor_cloud_agents.core.runs.waiting"),
    **dict.fromkeys(
        ["IN_FLIGHT", "MAX_RUNS", "REPLAYS_AT_ONCE", "Until", "Watched", "each_in_flight", "watch"],
        "cursor_cloud_agents.core.runs.watch",
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
    room_or_module = _importlib.import_module(home)
    if hasattr(room_or_module, name):
        value = getattr(room_or_module, name)
    else:  # a module of a room (`queue` of `core.spend`): a room's front is a docstring, it loads nothing
        value = _importlib.import_module(f"{home}.{name}")
    globals()[name] = value  # the next lookup is a plain attribute
    return value
