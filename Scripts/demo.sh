#!/usr/bin/env bash
# `make demo`: runs subfix on Samples/ and shows what it did. Outputs go to demo-out/.
set -euo pipefail
bin=${1:-.build/debug/subfix}
out=demo-out
rm -rf "$out" && mkdir -p "$out"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "subfix --version"
"$bin" --version

step "Samples/"
ls -l Samples

step "subfix fix Samples --out $out/fixed"
"$bin" fix Samples --out "$out/fixed" || true

step "what changed in yahei-styles.ass (excerpt of the diff)"
"$bin" fix Samples/yahei-styles.ass --dry-run --diff | sed -n '1,40p'

step "fixing the fixed files again changes nothing"
"$bin" fix "$out/fixed" --dry-run
