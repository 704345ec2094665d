"""The answers of `cursor_get_changes` and `cursor_check_changes`: an agent's change and its check."""

from __future__ import annotations

from pydantic import BaseModel

from cursor_cloud_agents.core import AgentChange, CheckResult, FileChange

APPLY_HINT = (
    "To bring it home the person runs, in their clone: cursor-cloud-agents apply AGENT (fast-forward; --merge or "
    "--cherry-pick). No tool applies it: that changes their working tree."
)
CHECK_HINT = "cursor_check_changes runs the person's configured check command on it first."


class FileRow(BaseModel):
    """One changed file: additions and deletions absent for a binary file."""

    path: str
    status: str
    binary: bool | None = None
    additions: int | None = None
    deletions: int | None = None
    old_path: str | None = None

    @classmethod
    def of(cls, file: FileChange) -> FileRow:
        return cls(
            path=file.path,
            status=file.status,
            binary=True if file.binary else None,
            additions=file.additions,
            deletions=file.deletions,
            old_path=file.old_path,
        )


class ChangesView(BaseModel):
    """An agent's change: its files (first page only) and a page of its unified diff."""

    agent_id: str
    run_id: str | None
    branch: str
    starting_ref: str | None
    base: str
    head: str
    commits: int
    found_in: str
    files_changed: int
    additions: int
    deletions: int
    files: list[FileRow] | None = None
    files_omitted: int | None = None
    path: str | None = None
    diff: str | None = None
    diff_chars: int | None = None
    next_offset: int | None = None
    hidden_removed: int | None = None
    diff_cut_at_bytes: int | None = None
    next_steps: str | None = None

    @classmethod
    def of(cls, change: AgentChange, path: str | None) -> ChangesView:
        target, size = change.target, change.size
        where = "a clone you shared" if change.place.kind == "clone" else "the server's git cache"
        return cls(
            agent_id=target.agent_id,
            run_id=target.run_id,
            branch=target.branch,
            starting_ref=target.starting_ref,
            base=change.base,
            head=change.head,
            commits=change.commits,
            found_in=f"{where} ({change.place.git.cwd})",
            files_changed=size.files,
            additions=size.additions,
            deletions=size.deletions,
            path=path,
        )


class CheckView(BaseModel):
    """The person's check command, run on the agent's commit."""

    agent_id: str
    run_id: str | None
    branch: str
    commit: str
    command: str
    passed: bool
    exit_code: int | None = None
    timed_out: bool | None = None
    seconds: float
    output_bytes: int
    last_lines: str
    hidden_removed: int | None = None
    sandboxed: bool
    """Whether it ran in the sandbox: no network, the file system read-only but its own folder (docs/safety.md)."""
    next_steps: str

    @classmethod
    def of(cls, change: AgentChange, result: CheckResult) -> CheckView:
        return cls(
            agent_id=change.target.agent_id,
            run_id=change.target.run_id,
            branch=change.target.branch,
            commit=result.commit,
            command=result.command,
            passed=result.passed,
            exit_code=result.exit_code,
            timed_out=True if result.timed_out else None,
            seconds=result.seconds,
            output_bytes=result.output_bytes,
            last_lines=result.last_lines,
            hidden_removed=result.hidden_removed or None,
            sandboxed=result.sandboxed,
            next_steps=APPLY_HINT,
        )
