#!/usr/bin/env bash
# The ways to get a throwaway tree of one commit for the check (docs/safety.md, "What it costs"), interleaved
# so that a busy machine slows them all alike. Usage: bench/check_place.sh REPOSITORY [ROUNDS]
# (REPOSITORY: a clone with some history; the commit checked out is HEAD~50, or HEAD when it has less.)
set -euo pipefail
repo=$(cd "$1" && git rev-parse --path-format=absolute --git-common-dir)
rounds=${2:-9}
commit=$(git -C "$repo" rev-parse HEAD~50 2>/dev/null || git -C "$repo" rev-parse HEAD)
work=$(mktemp -d)
trap 'git -C "$repo" worktree prune; rm -rf "$work"' EXIT
quiet="env GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$work git -c core.hooksPath=/dev/null"
declare -A took
ms() {
  local start
  start=$(date +%s%N)
  eval "$1" >/dev/null 2>&1 || echo "FAILED: $1" >&2
  echo $(( ($(date +%s%N) - start) / 1000000 ))
}
for _ in $(seq "$rounds"); do
  took[worktree]+="$(ms "git -C $repo worktree add -q --detach $work/w $commit && git -C $repo worktree remove --force $work/w") "
  took[shared]+="$(ms "$quiet clone -q --no-checkout --shared --template= $repo $work/s && $quiet -C $work/s checkout -q --detach $commit && rm -rf $work/s") "
  took[hardlinks]+="$(ms "$quiet clone -q --no-checkout --template= $repo $work/h && $quiet -C $work/h checkout -q --detach $commit && rm -rf $work/h") "
  took[copy]+="$(ms "$quiet clone -q --no-checkout --no-hardlinks --template= $repo $work/c && $quiet -C $work/c checkout -q --detach $commit && rm -rf $work/c") "
  took[shallow]+="$(ms "$quiet init -q --template= $work/d && $quiet -C $work/d fetch -q --depth 1 file://$repo $commit && $quiet -C $work/d checkout -q --detach $commit && rm -rf $work/d") "
done
for way in worktree shared hardlinks copy shallow; do
  median=$(tr ' ' '\n' <<<"${took[$way]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$way: median ${median} ms (each: ${took[$way]})"
done
uptime
