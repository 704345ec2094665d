"""Development tooling kept out of the wheel: the generated sections of the README and docs/, the `tools/list`
catalogue as clients read it, and the raw stdio probe. The scripts beside it, the tests (pytest's `pythonpath`) and
the benchmarks (`make bench`) import it; the installed package never does.
"""
