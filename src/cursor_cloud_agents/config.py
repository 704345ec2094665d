"""Settings: the one place that reads the environment.

`Settings.from_env(mapping)` is a pure function of the mapping it is given: the CLI passes
`os.environ`, tests pass a dict. Every variable is declared once, as a field of `Settings` (`setting(...)`:
its name, its reader with default and bounds, its meaning); `VARIABLES` lists them in that order, which
parses the environment and generates the table of docs/configuration.md (a test fails when it is stale).

Values that would leak or mislead are refused without ever being logged: an empty value and an
uninterpolated placeholder (`${...}`, `{env:...}`, which is what a client writes when it failed to
substitute a variable). A problem with the key does not stop the server: it starts, lists its
tools, and every call answers with the problem, so the model can tell the user what to fix.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

from cursor_cloud_agents import keystore
from cursor_cloud_agents.guards.net import is_loopback_host

T = TypeVar("T")


class ConfigError(ValueError):
    """A setting has a value the server cannot run with; the message names the variable."""


class Secret:
    """A string that never shows itself in a repr, a str() or a log line."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The value itself, for the one place that must send it (the Authorization header)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


_PLACEHOLDER = re.compile(r"\$\{[^}]*\}|\{env:[^}]*\}")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PRINTABLE = re.compile(r"^[\x21-\x7e]+$")  # printable ASCII without spaces: what a header or URL carries as it is


def refusal(value: str) -> str | None:
    """Why a value taken from the environment cannot be used, or None when it can (the value is never quoted)."""
    if not value.strip():
        return "is empty"
    if _PLACEHOLDER.search(value):
        return "holds an uninterpolated placeholder such as ${...} or {env:...}"
    return None


@dataclass(frozen=True)
class VariableReader(Generic[T]):
    """How a variable becomes a value: its parser (bounds and error messages included) and its default."""

    parse: Callable[[Mapping[str, str], str], T]
    """Read the variable of this name from the environment; raise ConfigError naming it when unusable."""
    default: Callable[[], T]
    """The value in a `Settings()` built without an environment."""
    shown: str
    """The default as a user reads it (the Default column of docs/configuration.md)."""


@dataclass(frozen=True)
class Variable:
    """One environment variable: its name, its reader, what it does, and the Settings field(s) it sets."""

    name: str
    reader: VariableReader[Any]
    meaning: str
    field: str = ""  # the Settings field that declares it (VARIABLES fills it in)
    problems: str | None = None
    """For a reader that answers (value, problems): the Settings field that keeps the problems."""

    @property
    def default(self) -> str:
        """The default as a user reads it."""
        return self.reader.shown

    def read(self, env: Mapping[str, str]) -> dict[str, Any]:
        """The Settings fields this variable sets, read from `env`."""
        value = self.reader.parse(env, self.name)
        if self.problems is None:
            return {self.field: value}
        return {self.field: value[0], self.problems: value[1]}


def setting(name: str, reader: VariableReader[T], meaning: str) -> T:
    """A Settings field read from the variable `name`: the one entry that declares it."""
    return field(default_factory=reader.default, metadata={"variable": Variable(name, reader, meaning)})


def setting_with_problems(name: str, reader: VariableReader[tuple[T, Any]], meaning: str, *, problems: str) -> T:
    """A Settings field whose reader also answers problems that do not stop start-up, kept in `problems`."""
    variable = Variable(name, reader, meaning, problems=problems)
    return field(default_factory=lambda: reader.default()[0], metadata={"variable": variable})


def _present(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name)
    if value is None:
        return None
    problem = refusal(value)
    if problem is not None:
        raise ConfigError(f"{name} {problem}; unset it or give it a real value")
    return value.strip()


def _read_key(env: Mapping[str, str]) -> tuple[Secret | None, str | None]:
    value = env.get("CURSOR_API_KEY")
    if value is None:
        return None, "CURSOR_API_KEY is not set and no key is stored"  # where to give one: each face says (SET_KEY)
    problem = refusal(value)
    if problem is not None:
        return None, f"CURSOR_API_KEY {problem}"
    return checked_key(value, "CURSOR_API_KEY")


def checked_key(value: str, where: str) -> tuple[Secret | None, str | None]:
    if not _PRINTABLE.match(value.strip()):
        # The key travels in a header: such a key made the client refuse to open (the server died at start-up, or
        # every call failed INTERNAL). Usually a pasted `Bearer ` prefix or a broken line.
        return None, (
            f"{where} holds spaces, control or non-ASCII characters: "
            "set the key alone (no `Bearer ` prefix, no line break)"
        )
    return Secret(value.strip()), None


def key_from_store(env: Mapping[str, str], api_key: Secret | None, problem: str | None) -> dict[str, Any]:
    """The key's fields once the stored key is considered: `CURSOR_API_KEY` first, then what `login` stored
    (`keystore`), when the variable is unset, empty or an uninterpolated placeholder (what a client passes
    when the person's shell had no key). A key that is there but malformed is reported, never replaced."""
    if api_key is not None:
        return {"key_source": "CURSOR_API_KEY"}
    given = env.get("CURSOR_API_KEY")
    if given is not None and refusal(given) is None:
        return {}
    try:
        stored = keystore.find(env)
    except keystore.KeyStoreError as exc:
        return {"key_problem": f"no usable key: {exc}"}
    if stored is None:
        return {} if given is None else {"key_problem": problem}  # where to give one: each face says
    secret, bad = checked_key(stored.value, f"the key stored in {stored.place}")
    if secret is None:
        return {"key_problem": f"{bad}; run `cursor-cloud-agents login` again"}
    ignored = "" if given is None else f" (CURSOR_API_KEY {refusal(given)}: ignored)"
    return {"api_key": secret, "key_problem": None, "key_source": f"stored in {stored.place}{ignored}"}


def _switch(env: Mapping[str, str], name: str) -> bool:
    value = _present(env, name)
    if value is None or value == "0":
        return False
    if value == "1":
        return True
    raise ConfigError(f"{name} must be 0 or 1")


def _listed_names(value: str, setting: str) -> list[str]:
    """The variable names of a comma-separated list (empty entries skipped); raise ConfigError for any other entry."""
    names = [part.strip() for part in value.split(",") if part.strip()]
    if not all(_NAME.match(name) for name in names):
        # Never quoted: what is not a name is often `NAME=value`, and the value a secret.
        raise ConfigError(
            f"{setting} holds an entry that is not a variable name: list names only (letters, digits, _), never values"
        )
    return names


def _read_forward_env(env: Mapping[str, str]) -> tuple[dict[str, Secret], dict[str, str]]:
    names = _present(env, "CURSOR_MCP_FORWARD_ENV")
    if names is None:
        return {}, {}
    forward: dict[str, Secret] = {}
    problems: dict[str, str] = {}
    for name in _listed_names(names, "CURSOR_MCP_FORWARD_ENV"):
        if name.upper().startswith("CURSOR_"):
            raise ConfigError(f"CURSOR_MCP_FORWARD_ENV names a reserved variable: {name}")
        value = env.get(name)
        problem = "is not set" if value is None else refusal(value)
        if problem is None and value is not None:
            forward[name] = Secret(value)
        else:
            problems[name] = f"{name} {problem}"
    return forward, problems


CHECK_OWN_VARIABLES = ("HOME", "TMPDIR")
"""Variables the check always gets from its throwaway folder, never from the process."""
CHECK_SANDBOX_MODES = ("auto", "off", "require")


def _check_env(env: Mapping[str, str]) -> tuple[str, ...]:
    value = _present(env, "CURSOR_MCP_CHECK_ENV")
    if value is None:
        return ()
    names: list[str] = []
    for name in _listed_names(value, "CURSOR_MCP_CHECK_ENV"):
        if name.upper().startswith("CURSOR_"):
            raise ConfigError(
                f"CURSOR_MCP_CHECK_ENV names {name}: no CURSOR_* variable reaches a check, the Cursor key above "
                "all, even listed; remove it"
            )
        if name in CHECK_OWN_VARIABLES:
            raise ConfigError(
                f"CURSOR_MCP_CHECK_ENV names {name}: the check always gets its own throwaway HOME and TMPDIR; remove it"
            )
        if name not in names:
            names.append(name)
    return tuple(names)


def _check_sandbox(env: Mapping[str, str]) -> str:
    value = (_present(env, "CURSOR_MCP_CHECK_SANDBOX") or "auto").lower()
    if value not in CHECK_SANDBOX_MODES:
        raise ConfigError(f"CURSOR_MCP_CHECK_SANDBOX must be one of {', '.join(CHECK_SANDBOX_MODES)}")
    return value


def _log_level(env: Mapping[str, str]) -> str:
    value = (_present(env, "CURSOR_MCP_LOG_LEVEL") or "INFO").upper()
    if value not in _LOG_LEVELS:
        raise ConfigError(f"CURSOR_MCP_LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}")
    return value


def _base_url(env: Mapping[str, str]) -> str:
    value = _present(env, "CURSOR_API_BASE_URL") or "https://api.cursor.com"
    plain = ConfigError("CURSOR_API_BASE_URL must be a plain URL such as https://api.cursor.com")
    if not _PRINTABLE.match(value):
        raise plain  # a space or a control character in it fails only at the first call
    try:
        parts = urlsplit(value)
        host = parts.hostname or ""
        _ = parts.port  # an unreadable port (`:abc`, `:99999`) raises here rather than at the first call
    except ValueError:
        raise plain from None
    if parts.username or parts.password or parts.query or parts.fragment or not host:
        raise plain
    if parts.scheme != "https" and not (parts.scheme == "http" and is_loopback_host(host)):
        raise ConfigError("CURSOR_API_BASE_URL must use https (http is accepted only for a loopback host)")
    return value.rstrip("/")


def _optional_number(env: Mapping[str, str], name: str, *, low: float, high: float) -> float | None:
    return None if _present(env, name) is None else _number(env, name, low, low=low, high=high)


def _number(env: Mapping[str, str], name: str, default: float, *, low: float, high: float) -> float:
    value = _present(env, name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ConfigError(f"{name} must be a number") from None
    if not low <= number <= high:
        raise ConfigError(f"{name} must be between {_plain(low)} and {_plain(high)}")
    return number


def _count(env: Mapping[str, str], name: str, default: int, *, low: int, high: int) -> int:
    """A whole number: a fraction is refused, never rounded (0.5 agents must not silently mean none)."""
    number = float(_number(env, name, default, low=low, high=high))
    if not number.is_integer():
        raise ConfigError(f"{name} must be a whole number")
    return int(number)


def _plain(number: float) -> str:
    """A bound as a person writes it: 100000000, not 1e+08."""
    return str(int(number)) if float(number).is_integer() else str(number)


def _host_suffixes(env: Mapping[str, str]) -> tuple[str, ...]:
    value = _present(env, "CURSOR_MCP_ARTIFACT_HOSTS")
    if value is None:
        return (".amazonaws.com",)
    suffixes = tuple(part.strip().lower() for part in value.split(",") if part.strip())
    if not suffixes:
        raise ConfigError("CURSOR_MCP_ARTIFACT_HOSTS must name at least one host suffix")
    return suffixes


def _git_hosts(env: Mapping[str, str]) -> tuple[str, ...]:
    value = _present(env, "CURSOR_MCP_GIT_HOSTS")
    if value is None:
        return ("github.com",)
    hosts = tuple(part.strip().lower() for part in value.split(",") if part.strip())
    if not hosts or not all(_PRINTABLE.match(host) and "/" not in host for host in hosts):
        raise ConfigError("CURSOR_MCP_GIT_HOSTS must name at least one host (e.g. github.com,gitlab.example.com)")
    return hosts


_TEAM_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")


def _team_id(env: Mapping[str, str]) -> str | None:
    # It goes into a header: refuse anything that could split it or smuggle another one.
    value = _present(env, "CURSOR_TEAM_ID")
    if value is not None and not _TEAM_ID.match(value):
        raise ConfigError("CURSOR_TEAM_ID must be a team id: letters, digits, '_', '-', '.', ':' (128 at most)")
    return value


def _folder(env: Mapping[str, str], name: str) -> Path | None:
    # A client starts the server in a directory of its choosing (the project, or /): a relative folder would
    # follow it, and each project's server would keep its own journal and its own 24-hour creation count.
    value = _present(env, name)
    if value is None:
        return None
    try:
        folder = Path(value).expanduser()
    except RuntimeError:  # `~someone/...` of a user this machine does not know
        raise ConfigError(f"{name} names the home directory of an unknown user") from None
    if not folder.is_absolute():
        raise ConfigError(f"{name} must be an absolute path (or start with ~/)")
    return folder


MEMORY_STATE = "memory"
"""`CURSOR_MCP_STATE_DIR=memory`: the store of paid acts kept by each process for itself, when the user asks."""


def _state_dir(env: Mapping[str, str]) -> Path | None:
    if _present(env, "CURSOR_MCP_STATE_DIR") == MEMORY_STATE:
        return None  # asked for explicitly: each process counts its own creations, and forgets them on exit
    chosen = _folder(env, "CURSOR_MCP_STATE_DIR")
    if chosen is not None:
        return chosen
    # XDG Base Directory: a relative XDG_STATE_HOME is invalid and is ignored.
    xdg = env.get("XDG_STATE_HOME") or ""
    base = Path(xdg) if Path(xdg).is_absolute() else Path(env.get("HOME") or "~") / ".local" / "state"
    return base.expanduser() / "cursor-cloud-agents"


def _github_api_url(env: Mapping[str, str]) -> str:
    value = _present(env, "GITHUB_API_URL") or "https://api.github.com"
    plain = ConfigError("GITHUB_API_URL must be a plain URL such as https://api.github.com")
    try:
        parts = urlsplit(value)
        host = parts.hostname or ""
        _ = parts.port
    except ValueError:
        raise plain from None
    if not _PRINTABLE.match(value) or parts.username or parts.password or parts.query or parts.fragment or not host:
        raise plain
    if parts.scheme != "https" and not (parts.scheme == "http" and is_loopback_host(host)):
        raise ConfigError("GITHUB_API_URL must use https (http is accepted only for a loopback host)")
    return value.rstrip("/")


def _github_token(env: Mapping[str, str], name: str) -> Secret | None:
    # It travels in a header, as the Cursor key does: a pasted prefix or a line break is refused, never quoted.
    value = _present(env, name)
    if value is None:
        return None
    if not _PRINTABLE.match(value):
        raise ConfigError(f"{name} holds spaces, control or non-ASCII characters: set the token alone")
    return Secret(value)


_LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")


def _logins(env: Mapping[str, str], name: str) -> frozenset[str]:
    value = _present(env, name)
    if value is None:
        return frozenset()
    logins = [part.strip() for part in value.split(",") if part.strip()]
    if not all(_LOGIN.match(login) for login in logins):
        raise ConfigError(f"{name} must list GitHub logins separated by commas (letters, digits, -)")
    return frozenset(login.lower() for login in logins)


ASK_ACTS = ("delete", "cancel", "replace", "create")
"""The acts `CURSOR_MCP_ASK` can name, each the `act` of one question (`core/spend/consent.py`)."""


def _asked_acts(env: Mapping[str, str]) -> frozenset[str]:
    """CURSOR_MCP_ASK's acts, with `create` when CURSOR_MCP_CONFIRM_CREATES=1 (its meaning kept)."""
    value = _present(env, "CURSOR_MCP_ASK")
    creates = _switch(env, "CURSOR_MCP_CONFIRM_CREATES")
    names = ["delete"] if value is None else [part.strip().lower() for part in value.split(",") if part.strip()]
    if names == ["none"]:
        if creates:
            raise ConfigError(
                "CURSOR_MCP_ASK=none asks nothing and CURSOR_MCP_CONFIRM_CREATES=1 asks before creations: "
                "unset one of them (CURSOR_MCP_ASK=create asks before creations only)"
            )
        return frozenset()
    acts = ", ".join(ASK_ACTS)
    if "none" in names:
        raise ConfigError(f"CURSOR_MCP_ASK=none stands alone: list acts among {acts}, or none alone")
    unknown = [name for name in names if name not in ASK_ACTS]
    if unknown or not names:
        shown = f" ({unknown[0][:20]!r} is not one)" if unknown else ""
        raise ConfigError(f"CURSOR_MCP_ASK must list acts among {acts}, or be none alone{shown}")
    return frozenset(names) | ({"create"} if creates else frozenset[str]())


def _switch_reader() -> VariableReader[bool]:
    return VariableReader(lambda env, name: _switch(env, name), lambda: False, "0")


def _number_reader(default: float, *, low: float, high: float) -> VariableReader[float]:
    return VariableReader(
        lambda env, name: _number(env, name, default, low=low, high=high), lambda: default, _plain(default)
    )


def _count_reader(default: int, *, low: int, high: int) -> VariableReader[int]:
    return VariableReader(
        lambda env, name: _count(env, name, default, low=low, high=high), lambda: default, _plain(default)
    )


def _optional_number_reader(*, low: float, high: float) -> VariableReader[float | None]:
    return VariableReader(lambda env, name: _optional_number(env, name, low=low, high=high), lambda: None, "(none)")


@dataclass(frozen=True)
class Settings:
    """Everything the server, the client and the simulator need to know, read once at start-up.

    Each field read from the environment is declared here once, with `setting(name, reader, meaning)`;
    the order of the fields is the order the variables are read in (the first problem is the one reported).
    """

    api_key: Secret | None = setting_with_problems(
        "CURSOR_API_KEY",
        VariableReader(lambda env, _: _read_key(env), lambda: (None, None), "(none)"),
        "Your Cursor API key; when unset, the key `cursor-cloud-agents login` stored is used. Without either the "
        "server starts and lists its tools; "
        "every call answers `CONFIGURATION_MISSING`.",
        problems="key_problem",
    )
    key_problem: str | None = None
    key_source: str | None = None
    """Where the key came from: `CURSOR_API_KEY`, or `stored in ...` (`login`); None without a key."""
    simulated: bool = setting(
        "CURSOR_MCP_FIXTURE",
        _switch_reader(),
        "`1` runs against the embedded simulator (`SIMULATED MODE`); a `CURSOR_API_KEY` set too is never used.",
    )
    forward_env: Mapping[str, Secret] = setting_with_problems(
        "CURSOR_MCP_FORWARD_ENV",
        VariableReader(lambda env, _: _read_forward_env(env), lambda: ({}, {}), "(none)"),
        "Comma-separated names of variables of this process that "
        "`forward_env` may pass to an agent; the values never go through tool arguments.",
        problems="forward_problems",
    )
    forward_problems: Mapping[str, str] = field(default_factory=dict[str, str])
    allow_writes: bool = setting(
        "CURSOR_MCP_ALLOW_WRITES",
        _switch_reader(),
        "`1` allows creating agents, follow-up runs, cancelling and archiving.",
    )
    allow_delete: bool = setting(
        "CURSOR_MCP_ALLOW_DELETE",
        _switch_reader(),
        "`1` also allows `cursor_delete_agent` (with writes on and `confirm_agent_id`).",
    )
    log_level: str = setting(
        "CURSOR_MCP_LOG_LEVEL",
        VariableReader(lambda env, _: _log_level(env), lambda: "INFO", "INFO"),
        "Log level on stderr: DEBUG, INFO, WARNING or ERROR.",
    )
    base_url: str = setting(
        "CURSOR_API_BASE_URL",
        VariableReader(lambda env, _: _base_url(env), lambda: "https://api.cursor.com", "https://api.cursor.com"),
        "API base URL; https is required except for a loopback host (a simulator), whose own host and port are "
        "then the one loopback place artifact downloads may come from.",
    )
    max_call_seconds: float = setting(
        "CURSOR_MCP_MAX_CALL_SECONDS",
        _number_reader(55.0, low=10.0, high=600.0),
        "Hard limit of one tool call, in seconds (the Cursor CLI and OpenCode cut calls at 60 s).",
    )
    task_max_seconds: float = setting(
        "CURSOR_MCP_TASK_MAX_SECONDS",
        _number_reader(3600.0, low=10.0, high=86_400.0),
        "Longest wait of an MCP task (clients that declare the Tasks extension), in seconds.",
    )
    max_new_agents: int = setting(
        "CURSOR_MCP_MAX_NEW_AGENTS",
        _count_reader(25, low=0, high=10_000),
        "Agents this machine's servers may create per rolling 24 hours (shared by every server process); "
        "`0` means none.",
    )
    max_spend_cents: float | None = setting(
        "CURSOR_MCP_MAX_SPEND_CENTS",
        _optional_number_reader(low=0, high=100_000_000),
        "Cents the agents created through this machine's servers may be charged per rolling 24 hours; "
        "at the limit, creations and follow-ups are refused (reads go on).",
    )
    max_active_agents: int = setting(
        "CURSOR_MCP_MAX_ACTIVE_AGENTS",
        _count_reader(8, low=1, high=10_000),
        "Agents of this key that may be running at once before a creation is refused `CAPACITY` "
        "(Cursor's Pro plan allows 8).",
    )
    ask: frozenset[str] = setting(
        "CURSOR_MCP_ASK",
        VariableReader(lambda env, _: _asked_acts(env), lambda: frozenset({"delete"}), "delete"),
        "The acts the user is asked about first (MCP elicitation), comma-separated: `delete`, `cancel` (a run), "
        "`replace` (`replace_active`'s cancel), `create` (each paid creation); `none` for unattended use. A client "
        "that cannot ask gets `confirm_agent_id` for a delete and a refusal for the others listed.",
    )
    confirm_creates: bool = setting(
        "CURSOR_MCP_CONFIRM_CREATES",
        _switch_reader(),
        "`1` adds `create` to `CURSOR_MCP_ASK`: each paid creation is put to the user first.",
    )
    max_result_bytes: int = setting(
        "CURSOR_MCP_MAX_RESULT_BYTES",
        _count_reader(38_000, low=4_000, high=1_000_000),
        "Largest tool result, in bytes (the Cursor CLI spills results over 40,000 bytes to a file).",
    )
    artifact_hosts: tuple[str, ...] = setting(
        "CURSOR_MCP_ARTIFACT_HOSTS",
        VariableReader(lambda env, _: _host_suffixes(env), lambda: (".amazonaws.com",), ".amazonaws.com"),
        "Comma-separated host suffixes allowed for artifact downloads.",
    )
    max_image_bytes: int = setting(
        "CURSOR_MCP_MAX_IMAGE_BYTES",
        # At most 5,000,000: an artifact is downloaded up to 5 MiB, so a larger limit could never be met.
        _count_reader(1_000_000, low=0, high=5_000_000),
        "Largest PNG, JPEG, GIF or WebP artifact `cursor_read_artifact` shows as an image (larger: its URL); "
        "`0` never sends one.",
    )
    state_dir: Path | None = setting(
        "CURSOR_MCP_STATE_DIR",
        # None: acts kept in memory, by this process only (Settings() in tests, CURSOR_MCP_STATE_DIR=memory).
        VariableReader(lambda env, _: _state_dir(env), lambda: None, "~/.local/state/cursor-cloud-agents"),
        "Where the store of paid acts lives (creations, follow-ups, "
        "tasks: no prompt, no secret in it), shared by every process of the machine, so a lost answer is never "
        "paid twice and the limits count them all; an absolute path. If it cannot be written, paid acts are "
        "refused. `memory`: each process counts for itself only.",
    )
    team_id: str | None = setting(
        "CURSOR_TEAM_ID",
        VariableReader(lambda env, _: _team_id(env), lambda: None, "(none)"),
        "Your Cursor team id, sent as the `x-cursor-team-id` header on every request (as the official SDK does).",
    )
    git_hosts: tuple[str, ...] = setting(
        "CURSOR_MCP_GIT_HOSTS",
        VariableReader(lambda env, _: _git_hosts(env), lambda: ("github.com",), "github.com"),
        "Comma-separated hosts the git cache may fetch an agent's repository from when no clone of yours has it "
        "(hosts your clones use are allowed too); a private or loopback address only when listed as it is.",
    )
    record_dir: Path | None = setting(
        "CURSOR_MCP_RECORD_DIR",
        VariableReader(lambda env, name: _folder(env, name), lambda: None, "(none)"),
        "A folder (an absolute path) where every exchange with the API is written as redacted JSON lines (files "
        "0600, size-capped); prompts and agent text are masked. Replay it with `simulate --replay`.",
    )
    record_keep_text: bool = setting(
        "CURSOR_MCP_RECORD_KEEP_TEXT",
        _switch_reader(),
        "`1` keeps prompts and agent text in the recording (secrets stay masked): a replay then answers word for word.",
    )
    check_command: str | None = setting(
        "CURSOR_MCP_CHECK_COMMAND",
        VariableReader(lambda env, name: _present(env, name), lambda: None, "(none)"),
        "A shell command (yours, never a model's) `cursor_check_changes` runs in a throwaway clone of an agent's "
        "branch, e.g. `python3 -m pytest -q`: it runs code the agent wrote, without any `CURSOR_*` variable.",
    )
    check_seconds: float = setting(
        "CURSOR_MCP_CHECK_SECONDS",
        _number_reader(300.0, low=1.0, high=3600.0),
        "Longest run of the check command, in seconds (then it and what it started are killed; a tool call also "
        "ends at CURSOR_MCP_MAX_CALL_SECONDS).",
    )
    check_env: tuple[str, ...] = setting(
        "CURSOR_MCP_CHECK_ENV",
        VariableReader(lambda env, _: _check_env(env), lambda: (), "(none)"),
        "Comma-separated names of variables the check command also sees (it always gets PATH, LANG, TZ, TERM, and "
        "its own throwaway HOME and TMPDIR; nothing else: no token reaches agent code unless listed). "
        "`CURSOR_*` names are refused: the Cursor key never reaches a check.",
    )
    checks_at_once: int = setting(
        "CURSOR_MCP_CHECKS_AT_ONCE",
        _count_reader(2, low=1, high=16),
        "Check commands run at once by one process; the others wait their turn within their own time limit.",
    )
    check_sandbox: str = setting(
        "CURSOR_MCP_CHECK_SANDBOX",
        VariableReader(lambda env, _: _check_sandbox(env), lambda: "auto", "auto"),
        "`auto` runs the check in a bubblewrap sandbox where `bwrap` works (no network, everything read-only but "
        "its own folder), `require` refuses a check without it, `off` never uses it (docs/safety.md).",
    )
    max_run_minutes: float | None = setting(
        "CURSOR_MCP_MAX_RUN_MINUTES",
        _optional_number_reader(low=1, high=10_080),
        "A time ceiling for the runs of the agents this machine created: the MCP server cancels a run older than "
        "this many minutes (said on stderr). Unset: none.",
    )
    github_api_url: str = setting(
        "GITHUB_API_URL",
        VariableReader(lambda env, _: _github_api_url(env), lambda: "https://api.github.com", "https://api.github.com"),
        "GitHub's REST API, read by `pr` and `babysit` (the variable GitHub's own runners set; https, or http on "
        "a loopback host).",
    )
    gh_token: Secret | None = setting(
        "GH_TOKEN",
        VariableReader(_github_token, lambda: None, "(none)"),
        "A GitHub token that can read the agents' pull requests (`pr`, `babysit`); else `GITHUB_TOKEN`, else "
        "`gh auth token`. Never the Cursor key, never sent to Cursor.",
    )
    github_token: Secret | None = setting(
        "GITHUB_TOKEN",
        VariableReader(_github_token, lambda: None, "(none)"),
        "The GitHub token used when `GH_TOKEN` is not set.",
    )
    trusted_reviewers: frozenset[str] = setting(
        "CURSOR_MCP_TRUSTED_REVIEWERS",
        VariableReader(_logins, frozenset, "(none)"),
        "GitHub logins whose PR comments `babysit` sends to the agent besides those with write access "
        "(comma-separated); a bot is never trusted.",
    )

    claude_plugin: bool = False
    """Whether Claude Code started this server as a plugin's: it sets `CLAUDE_PLUGIN_ROOT` in a plugin server's
    environment (Claude Code 2.1.332, docs/clients.md). Not a setting of the user's: it tells which name
    Claude Code gave the server (its hooks match that name), for the advice a `DECLINED` answer gives."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Read the settings from `env`; raise ConfigError for a tuning value the server cannot run with."""
        values: dict[str, Any] = {}
        for variable in VARIABLES:
            values |= variable.read(env)
        if values["simulated"] and values["api_key"] is not None:
            values["api_key"] = None
            values["key_problem"] = (
                "CURSOR_MCP_FIXTURE=1 is refused together with CURSOR_API_KEY: simulated mode never uses a real key"
            )
        elif not values["simulated"]:  # simulated mode never looks for a stored key
            values |= key_from_store(env, values["api_key"], values["key_problem"])
        return cls(**values, claude_plugin=bool(env.get("CLAUDE_PLUGIN_ROOT")))

    def secrets(self) -> list[str]:
        """Every secret value known at start-up: the key and the forwarded values (for the redactor)."""
        values = [secret.reveal() for secret in self.forward_env.values()]
        values += [token.reveal() for token in (self.gh_token, self.github_token) if token is not None]
        if self.api_key is not None:
            values.append(self.api_key.reveal())
        return values


def _variables() -> tuple[Variable, ...]:
    found: list[Variable] = []
    for each in fields(Settings):
        variable = each.metadata.get("variable")
        if isinstance(variable, Variable):
            found.append(Variable(variable.name, variable.reader, variable.meaning, each.name, variable.problems))
    return tuple(found)


VARIABLES: tuple[Variable, ...] = _variables()
"""Every environment variable the settings read, in the order they are read (and shown in docs/configuration.md)."""
