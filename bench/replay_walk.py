"""Bench: walk a 16 MiB run replay over loopback HTTP keeping the last 50 events.

A small HTTP/1.1 server in a child process serves a pre-encoded replay of realistic events
(docs/api-contract.md shapes: mostly `interaction_update`, `assistant` fragments and `tool_call` pairs, ids
`<ms>-<seq>`, ending with `result` + `done`) as a chunked `text/event-stream`. The parent walks it
with `CursorClient.walk_replay` and a `TailCollector(50)`, five times, and prints the median
throughput (MB/s, 10^6 bytes) and the peak Python memory growth of one walk (tracemalloc, a
separate untimed walk). Targets: ≥ 42 MB/s and ≤ 32 MiB. Figures only, no asserts.

Run: `.venv/bin/python bench/replay_walk.py [--mib 16] [--runs 5]`
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import random
import statistics
import time
import tracemalloc
from multiprocessing.connection import Connection

import anyio

from cursor_cloud_agents.api import CursorClient, ReplayOutcome, TailCollector

AGENT = "bc-00000000-0000-0000-0000-000000000001"
RUN = "run-00000000-0000-0000-0000-000000000001"
START_MS = 1_700_000_000_000  # long before "now": every event is replay
CHUNK = 64 * 1024
WORDS = "the of to and a in is it you that he was for on are with as I his they be at one have this".split()


def _frame(event: str, payload: object, event_id: str | None) -> bytes:
    data = json.dumps(payload, separators=(",", ":"))
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {data}\n\n".encode()


def _tool_pair(rng: random.Random, ms: int, seq: int) -> list[bytes]:
    call = f"call-{seq}"
    if rng.random() < 0.5:
        args: dict[str, object] = {"path": f"src/module_{seq % 97}.py"}
        result: object = {"success": {"content": "x = 1\n" * rng.randint(20, 600), "totalLines": 40, "path": "f"}}
        name = "read_file"
    else:
        args = {"command": f"pytest -q tests/test_{seq % 31}.py", "isBackground": rng.random() < 0.1}
        result = {"success": {"command": args["command"], "stdout": "." * rng.randint(10, 2000), "exitCode": 0}}
        name = "run_terminal_cmd"
    event_id = f"{ms}-{seq}"
    started = {"type": "tool-call-started", "callId": call, "toolCall": {"type": "shell", "args": args}}
    completed = {
        "type": "tool-call-completed",
        "callId": call,
        "toolCall": {"type": "shell", "args": args, "result": result},
    }
    return [
        _frame("interaction_update", started, event_id),
        _frame("tool_call", {"callId": call, "name": name, "status": "running", "args": args}, event_id),
        _frame("interaction_update", completed, f"{ms + 1}-0"),
        _frame(
            "tool_call",
            {"callId": call, "name": name, "status": "completed", "args": args, "result": result},
            f"{ms + 1}-0",
        ),
    ]


def build_replay(target_bytes: int, seed: int = 7) -> bytes:
    """A replay of about `target_bytes`, realistic in its mix of event types and sizes."""
    rng = random.Random(seed)
    frames = [_frame("status", {"runId": RUN, "status": "RUNNING"}, None)]
    size, ms, seq = len(frames[0]), START_MS, 0
    while size < target_bytes:
        ms += rng.randint(1, 400)
        seq += 1
        roll = rng.random()
        if roll < 0.08:
            batch = _tool_pair(rng, ms, seq)
        elif roll < 0.15:
            batch = [_frame("interaction_update", {"type": "token-delta", "tokens": rng.randint(1, 50)}, f"{ms}-0")]
        else:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) + " "
            batch = [
                _frame("interaction_update", {"type": "text-delta", "text": text}, f"{ms}-0"),
                _frame("assistant", {"text": text}, f"{ms}-0"),
            ]
        frames.extend(batch)
        size += sum(map(len, batch))
    final = f"{ms + 1000}-0"
    frames.append(_frame("result", {"runId": RUN, "status": "FINISHED", "text": "Done.", "durationMs": 12_357}, final))
    frames.append(_frame("done", {}, final))
    return b"".join(frames)


def _chunked(body: bytes) -> list[bytes]:
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
        b"X-Cursor-Stream-Retention-Seconds: 86400\r\n\r\n"
    )
    parts = [head]
    for start in range(0, len(body), CHUNK):
        piece = body[start : start + CHUNK]
        parts.append(b"%x\r\n" % len(piece) + piece + b"\r\n")
    parts.append(b"0\r\n\r\n")
    return parts


def serve(mib: float, ready: Connection) -> None:
    """Child process: serve the pre-encoded replay to every request until killed."""
    parts = _chunked(build_replay(int(mib * 1024 * 1024)))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                await reader.readuntil(b"\r\n\r\n")
                for part in parts:
                    writer.write(part)
                    await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        ready.send((server.sockets[0].getsockname()[1], sum(map(len, parts))))
        await server.serve_forever()

    asyncio.run(main())


async def walk_once(client: CursorClient) -> tuple[float, ReplayOutcome]:
    tail = TailCollector(50)
    started = time.perf_counter()
    outcome = await client.walk_replay(AGENT, RUN, tail)
    elapsed = time.perf_counter() - started
    assert len(tail.events) == 50 and outcome.ended_by == "result", outcome  # the walk did its job
    return elapsed, outcome


async def bench(port: int, runs: int) -> None:
    async with CursorClient(f"http://127.0.0.1:{port}", "bench-key") as client:
        await walk_once(client)  # warm-up: connection, imports
        timings = [await walk_once(client) for _ in range(runs)]
        gc.collect()
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        await walk_once(client)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    outcome = timings[0][1]
    rates = [outcome.bytes / elapsed / 1e6 for elapsed, _ in timings]
    print(f"replay: {outcome.bytes / 1024 / 1024:.1f} MiB, {outcome.events} events, ended by {outcome.ended_by}")
    print(f"throughput per run (MB/s): {', '.join(f'{rate:.1f}' for rate in rates)}")
    print(f"median throughput: {statistics.median(rates):.1f} MB/s (target >= 42)")
    print(f"peak memory growth of one walk: {(peak - before) / 1024 / 1024:.1f} MiB (target <= 32)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mib", type=float, default=16.0, help="replay size in MiB")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (median reported)")
    args = parser.parse_args()
    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.Process(target=serve, args=(args.mib, theirs), daemon=True)
    child.start()
    try:
        port, _ = ours.recv()
        anyio.run(bench, port, args.runs)
    finally:
        child.terminate()
        child.join()


if __name__ == "__main__":
    main()
