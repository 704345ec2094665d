"""`cursor_get_changes` reads a diff of any size in bounded memory (issue 42), measured in a process of its own.

The bench (bench/changes_memory.py) is run on a 20 MB diff: big enough that holding it whole (as the
server did: about 250 MB per call for 60 MB) would show, small enough to take seconds. The bench's 60 MB
figures are in docs/reliability.md (H-25).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "changes_memory.py"


def test_a_20_mb_diff_is_paged_with_under_16_mib_of_peak_growth_h_25() -> None:
    """H-25: about 10 s (a 20 MB commit, then the diff prepared under tracemalloc twice): the first page
    measures the whole diff chunk by chunk, the middle page stops git once its window is full; neither call
    grows Python's memory by more than 16 MiB (the diff is 20 MB: held whole, it would be over it)."""
    done = subprocess.run([sys.executable, str(BENCH), "20"], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["diff_chars"] > 20_000_000
    assert figures["first_page"]["peak_growth_mib"] < 16 and figures["middle_page"]["peak_growth_mib"] < 16, figures
