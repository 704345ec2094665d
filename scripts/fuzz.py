"""The protocol fuzzer's long run (`make fuzz`): ten minutes of messages drawn from the protocol over the raw
stdio of one spawned server in simulated mode, held to the rule of `tests/e2e/fuzz_wire.py` (every line
answered as JSON-RPC says, nothing sent upstream for a refusal, no planted secret and no traceback on stderr at
DEBUG, the server alive after). Prints what it sent and varied; exit 1 on the first failure, with its seed.

Run: `make fuzz` (or `.venv/bin/python scripts/fuzz.py [--minutes 10] [--seed N]`)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the fuzzer lives with the tests

from tests.e2e.fuzz_wire import WireUnderFuzz, fuzz


def main(minutes: float, first_seed: int) -> int:
    sys.stdout.write(f"protocol fuzz for {minutes:g} min, seeds from {first_seed} (FUZZ_SEED)\n")
    started = time.monotonic()
    failed = False
    with tempfile.TemporaryDirectory(prefix="cursor-fuzz-") as folder:
        server = WireUnderFuzz(Path(folder))
        try:
            server.start()
            runs = fuzz(server, seconds=minutes * 60, examples=10**9, random_seed=first_seed)
            sys.stdout.write(f"hypothesis runs {runs} (seeds {first_seed}..{first_seed + runs - 1})\n")
        except AssertionError:
            failed = True
            traceback.print_exc(file=sys.stdout)
        finally:
            status = server.close()
        sys.stdout.write(server.stats.summary() + "\n")
        sys.stdout.write(f"{time.monotonic() - started:.0f} s; the server exited {status} at the end of its input\n")
    if failed or status != 0:
        sys.stdout.write("FAILED\n")
        return 1
    sys.stdout.write("nothing found\n")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=random.randrange(2**32))
    arguments = parser.parse_args()
    sys.exit(main(arguments.minutes, arguments.seed))
