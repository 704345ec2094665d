"""The stdio fuzzer: protocol messages (`fuzz_messages.py`) over the raw stdio of a spawned server.

The server runs in simulated mode at DEBUG, writes allowed, with an API key, a forwarded value and (in the
messages) an `env_vars` value planted, and records every exchange with the API (CURSOR_MCP_RECORD_DIR). Each
case is written as its bytes, cut anywhere, then a sentinel `ping`; the rule, checked after each case:

- every line is answered as `expected` says (nothing more: no answer to a notification or a response), and
  every line on stdout is a JSON-RPC message;
- a case without a valid `tools/call` sent nothing upstream (the recording did not grow);
- stderr holds no form (the masker's list of encodings) of a planted secret, and no traceback;
- the sentinel is answered, and the server is alive.

`fuzz()` runs hypothesis for a time or a number of cases and returns what it sent (`Stats`); the test suite
runs it for seconds, `make fuzz` (scripts/fuzz.py) for ten minutes.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from hypothesis import HealthCheck, Phase, given, seed, settings

from cursor_cloud_agents.redact import ENCODINGS
from cursor_cloud_agents.server.protocol.nesting import MAX_DEPTH
from tests.e2e.fuzz_messages import ANY_CODE, SECRET, Case, Expected, cases, expected

API_KEY = "key_fuzz_planted_0123456789abcdef0123456789abcdef"
FORWARDED = "forwarded-fuzz-value-5K8p"
SECRETS = (SECRET, API_KEY, FORWARDED)
CASE_SECONDS = 60.0
"""The longest a case may wait for its answers (a loaded machine; the calls end in well under a second)."""
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "fuzz-initialize",
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
}


@dataclass
class Stats:
    """What the fuzzer sent and saw."""

    cases: int = 0
    lines: int = 0
    bytes: int = 0
    writes: int = 0
    kinds: Counter[str] = field(default_factory=Counter[str])
    answers: Counter[str] = field(default_factory=Counter[str])
    separators: Counter[str] = field(default_factory=Counter[str])
    deepest: int = 0
    past_depth_limit: int = 0
    widest: int = 0
    lone_surrogates: int = 0
    control_characters: int = 0
    valid_calls: int = 0
    upstream_exchanges: int = 0

    def summary(self) -> str:
        return "\n".join(
            [
                f"cases {self.cases}, lines (messages) {self.lines}, bytes {self.bytes}, writes {self.writes}",
                f"lines by kind: {dict(self.kinds.most_common())}",
                f"answers: {dict(self.answers.most_common())}",
                f"separators: {dict(self.separators.most_common())}",
                f"deepest {self.deepest} levels ({self.past_depth_limit} lines past the limit of {MAX_DEPTH}), "
                f"widest container {self.widest} items",
                f"lines with a lone surrogate {self.lone_surrogates}, with a control character "
                f"{self.control_characters}",
                f"valid tools/call {self.valid_calls}, upstream exchanges recorded {self.upstream_exchanges}",
            ]
        )


def secret_forms() -> list[str]:
    """Every form of every planted secret the masker's list names, and the first 16 characters of each."""
    return sorted({form for secret in SECRETS for form in [secret[:16]] + [e.encode(secret) for e in ENCODINGS]})


class WireUnderFuzz:
    """The spawned server, what it writes back, and its stderr and recording on disk."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._records = folder / "records"
        self._log = folder / "stderr.log"
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(folder),
            "CURSOR_MCP_FIXTURE": "1",
            "CURSOR_MCP_LOG_LEVEL": "DEBUG",
            "CURSOR_MCP_ALLOW_WRITES": "1",
            "CURSOR_MCP_MAX_NEW_AGENTS": "10000",
            "CURSOR_MCP_MAX_ACTIVE_AGENTS": "10000",
            "CURSOR_MCP_STATE_DIR": str(folder / "state"),
            "CURSOR_MCP_RECORD_DIR": str(self._records),
            "CURSOR_API_KEY": API_KEY,
            "CURSOR_MCP_FORWARD_ENV": "FUZZ_TOKEN",
            "FUZZ_TOKEN": FORWARDED,
        }
        self._stderr = self._log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cursor_cloud_agents"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
        )
        self._answers: queue.Queue[dict[str, Any] | str] = queue.Queue()
        self._reader = threading.Thread(target=self._read_stdout, name="fuzz-stdout", daemon=True)
        self._reader.start()
        self._log_read = 0
        self._sentinels = 0
        self.stats = Stats()

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                self._answers.put(f"not JSON on stdout: {raw[:200]!r}")
                continue
            if isinstance(message, dict):
                self._answers.put(cast(dict[str, Any], message))
            else:
                self._answers.put(f"not a message on stdout: {raw[:200]!r}")
        self._answers.put("stdout closed")

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def start(self) -> None:
        """Nine notifications and more before the first request (the SDK logs those past eight, whole), then the
        handshake."""
        for _ in range(10):
            self.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/x", "params": {"e": SECRET}}).encode())
            self.write(b"\n")
        self.write(json.dumps(INITIALIZE).encode() + b"\n")
        self._collect([Expected("fuzz-initialize", ANY_CODE)], time.monotonic() + CASE_SECONDS)
        self.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')

    def play(self, case: Case) -> None:
        """Write `case` and hold the server to the rule (see the module's docstring)."""
        wanted = [answer for line in case.lines for answer in expected(line)]
        recorded = self._recording()
        writes = case.writes()
        for data in writes:
            self.write(data)
        self._sentinels += 1
        sentinel = f"sentinel-{self._sentinels}"
        self.write(json.dumps({"jsonrpc": "2.0", "id": sentinel, "method": "ping"}).encode() + b"\n")
        self._collect([*wanted, Expected(sentinel, ANY_CODE)], time.monotonic() + CASE_SECONDS)
        grown = self._recording() != recorded
        if not any(answer.valid_call for answer in wanted):
            assert not grown, "a case without a valid tools/call sent a request upstream"
        self._check_log()
        assert self.process.poll() is None, "the server exited"
        self._count(case, wanted, writes, grown)

    def _collect(self, wanted: list[Expected], deadline: float) -> None:
        pending = list(wanted)
        while pending:
            try:
                answer = self._answers.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"never answered: {pending[:5]}") from None
            assert not isinstance(answer, str), answer
            if "method" in answer:
                assert "id" not in answer, f"the server asked the client something: {str(answer)[:200]}"
                continue  # a notification (progress, log message): not an answer
            self._match(pending, answer)

    def _match(self, pending: list[Expected], answer: dict[str, Any]) -> None:
        code = answer["error"]["code"] if "error" in answer else "result"
        for index, want in enumerate(pending):
            if want.request_id == answer.get("id") and type(want.request_id) is type(answer.get("id")):
                assert want.code in (ANY_CODE, code), f"answered {code}, expected {want.code}: {str(answer)[:300]}"
                del pending[index]
                self.stats.answers[str(code)] += 1
                return
        raise AssertionError(f"an answer nothing asked for: {str(answer)[:300]}")

    def _recording(self) -> list[tuple[str, int]]:
        if not self._records.exists():
            return []
        return [(path.name, path.stat().st_size) for path in sorted(self._records.glob("trace-*.jsonl"))]

    def _check_log(self) -> None:
        """The log written since the last check holds no secret form and no traceback (a form may straddle the
        boundary: the last bytes already read are read again)."""
        with self._log.open("rb") as log:
            start = max(0, self._log_read - 256)
            log.seek(start)
            text = log.read().decode("utf-8", "replace")
        self._log_read = start + len(text.encode("utf-8", "replace"))
        leaked = [form for form in secret_forms() if form in text]
        assert not leaked, f"a planted secret is in the log: {leaked}"
        assert "Traceback (most recent call last)" not in text, text[text.index("Traceback") :][:2000]

    def _count(self, case: Case, wanted: list[Expected], writes: list[bytes], grown: bool) -> None:
        stats = self.stats
        stats.cases += 1
        stats.lines += len(case.lines)
        stats.bytes += len(case.stream())
        stats.writes += len(writes)
        stats.separators.update(repr(separator)[2:-1] for separator in case.separators)
        stats.valid_calls += sum(answer.valid_call for answer in wanted)
        stats.upstream_exchanges += grown
        for line in case.lines:
            stats.kinds[line.kind] += 1
            stats.deepest = max(stats.deepest, line.depth)
            stats.widest = max(stats.widest, line.width)
            stats.past_depth_limit += line.depth > MAX_DEPTH
            stats.lone_surrogates += b"\\ud8" in line.raw.lower() or b"\xed\xa0" in line.raw or b"\\udc" in line.raw
            stats.control_characters += b"\\u00" in line.raw or any(byte < 0x20 and byte != 0x09 for byte in line.raw)

    def close(self) -> int:
        """End the input; the server's exit status (it must be 0)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            return self.process.wait(10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(5)
            self._reader.join(5)  # it ends at the end of stdout
            assert self.process.stdout is not None
            self.process.stdout.close()
            self._stderr.close()


CHUNK = 10
"""Cases per hypothesis run: a run cannot be stopped at a time, so time is checked between short runs."""


def fuzz(server: WireUnderFuzz, *, seconds: float, examples: int, random_seed: int) -> int:
    """Run hypothesis against `server` until `seconds` pass or at least `examples` cases ran, in short runs seeded
    `random_seed`, `random_seed + 1`, ... (no shrinking: the server is stateful; the failing case is printed
    whole); the number of runs. A failure carries the seed that replays it (FUZZ_SEED)."""
    stop = time.monotonic() + seconds
    runs = 0
    while time.monotonic() < stop and server.stats.cases < examples:
        _fuzz_run(server, random_seed + runs, stop)
        runs += 1
    return runs


def _fuzz_run(server: WireUnderFuzz, run_seed: int, stop: float) -> None:
    @settings(
        max_examples=CHUNK,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.large_base_example,
        ],
    )
    @seed(run_seed)
    @given(case=cases())
    def check(case: Case) -> None:
        if time.monotonic() < stop:
            server.play(case)

    try:
        check()
    except AssertionError as failure:
        failure.add_note(f"protocol fuzz seed {run_seed}: replay with FUZZ_SEED={run_seed}")
        raise
