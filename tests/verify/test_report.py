"""The verify report (`verify/report.py`): one masked line per fact, and an exit status of 1 only when one differs."""

from __future__ import annotations

from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.verify.report import EXIT_DIFFERS, EXIT_OK, Report, differs, new, ok, skipped

KEY = "key_live_0123456789abcdef"


def test_each_fact_is_one_masked_line_and_skipped_or_new_do_not_fail() -> None:
    printed: list[str] = []
    report = Report(printed.append, Redactor([KEY]), None)
    report.add(ok("models listed", f"with {KEY}"), skipped("webhooks", "no repository"), new("field", "cost"))
    assert printed[0].startswith("OK      models listed: with ") and KEY not in "".join(printed)
    assert report.exit_code == EXIT_OK and report.count("SKIPPED") == 1


def test_one_differing_fact_makes_the_exit_status_1_and_says_both_sides() -> None:
    printed: list[str] = []
    report = Report(printed.append, Redactor(), None)
    report.add(differs("status", "201", "200"))
    assert report.exit_code == EXIT_DIFFERS and printed == ["DIFFERS status: expected 201; got 200\n"]


def test_identities_are_masked_unless_shown() -> None:
    printed: list[str] = []
    Report(printed.append, Redactor(), Redactor(["octo-org"])).say("repository octo-org/app")
    Report(printed.append, Redactor(), None).say("repository octo-org/app")
    assert "octo-org" not in printed[0] and printed[1] == "repository octo-org/app\n"
