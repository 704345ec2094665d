# Two commands for a fresh machine with only Python >= 3.11 and pip: `make demo` and `make test`.
# Each bootstraps what it needs: uv in a private folder (.tools), then the locked environment (.venv).

PYTHON ?= python3
UV := $(shell command -v uv 2>/dev/null || echo .tools/bin/uv)
export UV_PYTHON_DOWNLOADS := never
# Compiled once at sync: every process the suite spawns (about fifty servers and commands) then reads
# bytecode instead of compiling the SDK and its dependencies again.
export UV_COMPILE_BYTECODE := 1

.PHONY: demo test check lint bench readme snapshot plugins reliability recording fuzz clean

demo: .venv/.synced
	.venv/bin/cursor-cloud-agents demo
	@echo "--- babysit: the simulated README agent's PR, its CI failing, one fix sent, then merged (docs/pr-loop.md)"
	CURSOR_MCP_STATE_DIR=memory .venv/bin/cursor-cloud-agents babysit --simulated --speed 30 --interval 5 your-org/your-repo#530

# Across the machine's cores, one worker more than them (tests/conftest.py says why);
# `.venv/bin/pytest -p no:xdist` runs it in one process.
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): pytest keeps its
# rewritten test modules and our spawned servers their compiled modules, instead of compiling them anew
# in every worker and every process.
test: .venv/.synced
	env -u PYTHONDONTWRITEBYTECODE .venv/bin/pytest -n auto

lint: .venv/.synced
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/pyright

check: test lint

bench: .venv/.synced
	for script in bench/*.py; do PYTHONPATH=scripts .venv/bin/python $$script || exit 1; done

readme: .venv/.synced
	.venv/bin/python scripts/update_readme.py

snapshot: .venv/.synced
	.venv/bin/python scripts/update_snapshot.py

# The package files every client installs (plugin.json, mcp.json, .codex-plugin/, server.json...), from cli/plugins.py.
plugins: .venv/.synced
	.venv/bin/python scripts/update_plugins.py

recording: .venv/.synced
	.venv/bin/python scripts/record_terminal.py

reliability: .venv/.synced
	.venv/bin/python scripts/reliability.py

fuzz: .venv/.synced
	.venv/bin/python scripts/fuzz.py --minutes 10

.tools/bin/uv:
	$(PYTHON) -m venv .tools
	.tools/bin/python -m pip install --quiet --disable-pip-version-check uv

.venv/.synced: pyproject.toml uv.lock $(if $(filter .tools/bin/uv,$(UV)),.tools/bin/uv)
	$(UV) sync --frozen --python $(PYTHON)
	touch $@

clean:
	rm -rf .venv .tools dist
