#!/usr/bin/env bash
# Claude Code from npm into .tools/claude-code (once), for `claude plugin validate` in the tests and CI.
# Exit 0 when .tools/claude-code/node_modules/.bin/claude is there; 3, with the reason on stderr, when it
# cannot be installed (no npm, or the registry unreachable): the caller prints that the check was skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
VERSION=2.1.332  # the Claude Code measured with this server (docs/clients.md)
prefix=.tools/claude-code
if [ -x "$prefix/node_modules/.bin/claude" ] && \
   [ "$("$prefix/node_modules/.bin/claude" --version 2>/dev/null | cut -d' ' -f1)" = "$VERSION" ]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "npm is not on PATH: Claude Code cannot be installed" >&2
  exit 3
fi
if ! npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$VERSION" >&2; then
  echo "npm could not install @anthropic-ai/claude-code@$VERSION (is the registry reachable?)" >&2
  exit 3
fi
