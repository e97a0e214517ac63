#!/usr/bin/env bash
# `make bench`: runs every Benchmarks/*.sh in turn. Each prints its own ratios against peers measured in
# the same run. Outputs and generated inputs go to bench-out/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench-out
# Runs that log jobs (fix, extract, render) write to a library of their own, never to the user's.
rm -rf bench-out/data
export XDG_DATA_HOME="$PWD/bench-out/data"
status=0
for script in Benchmarks/*.sh; do
    [ "$(basename "$script")" = run.sh ] && continue
    printf '\n\033[1m== %s\033[0m\n' "$script"
    bash "$script" || { echo "bench: $script failed" >&2; status=1; }
done
exit $status
