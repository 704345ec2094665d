"""The verify report: one line per fact, printed masked, and the exit status it adds up to."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from cursor_cloud_agents.redact import Redactor

Verdict = Literal["OK", "DIFFERS", "SKIPPED", "NEW"]
EXIT_OK = 0
EXIT_DIFFERS = 1
EXIT_COULD_NOT_RUN = 2


@dataclass(frozen=True)
class Line:
    """One fact's verdict and what was seen."""

    verdict: Verdict
    fact: str
    detail: str = ""


def ok(fact: str, detail: str = "") -> Line:
    """The fact holds."""
    return Line("OK", fact, detail)


def differs(fact: str, expected: str, got: str) -> Line:
    """The fact does not hold: what we expected and what came back."""
    return Line("DIFFERS", fact, f"expected {expected}; got {got}")


def skipped(fact: str, why: str) -> Line:
    """The fact could not be checked with this account, and why."""
    return Line("SKIPPED", fact, why)


def new(fact: str, detail: str) -> Line:
    """Something the contract does not know yet (drift to report, not a failure)."""
    return Line("NEW", fact, detail)


@dataclass
class Report:
    """The lines so far, printed as they come through `write`, each masked by `secrets` then `identities`."""

    write: Callable[[str], object]
    secrets: Redactor
    identities: Redactor | None
    """None with --show-identities."""
    lines: list[Line] = field(default_factory=list[Line])

    def add(self, *lines: Line) -> None:
        """Record and print `lines`."""
        for line in lines:
            self.lines.append(line)
            self.write(
                self.masked(f"{line.verdict:<8}{line.fact}" + (f": {line.detail}" if line.detail else "")) + "\n"
            )

    def masked(self, text: str) -> str:
        """`text` safe to paste: the key masked in every encoding, identities unless shown."""
        text = self.secrets.mask(text)
        return text if self.identities is None else self.identities.mask(text)

    def say(self, text: str) -> None:
        """Print a line that is not a fact (headings, the cost), masked the same way."""
        self.write(self.masked(text) + "\n")

    @property
    def exit_code(self) -> int:
        """0 when every fact is OK, SKIPPED or NEW; 1 when any DIFFERS."""
        return EXIT_DIFFERS if any(line.verdict == "DIFFERS" for line in self.lines) else EXIT_OK

    def count(self, verdict: Verdict) -> int:
        """How many lines have `verdict`."""
        return sum(1 for line in self.lines if line.verdict == verdict)
