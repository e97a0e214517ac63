#!/usr/bin/env bash
# `subfix fix` against GNU sed doing the same substitutions (Style Fontname field and \fn tags), measured in
# the same run: one generated 200,000-event ASS (about 20 MB) on one core, and 5,000 small files with two jobs
# against `xargs -P2 sed`. Targets: at least 3x sed's throughput; peak memory under 4x the file size.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/subfix
events=${FIX_BENCH_EVENTS:-200000}
small=${FIX_BENCH_FILES:-5000}
out=bench-out/fix
mkdir -p "$out"
[ -x "$bin" ] || { echo "fix.sh: build first: swift build -c release" >&2; exit 1; }
export LC_ALL=C.UTF-8

big=$out/big.ass
[ -s "$big" ] || perl Benchmarks/fix-generate.pl big "$big" "$events"
[ -d "$out/small" ] || perl Benchmarks/fix-generate.pl small "$out/small" "$small"
size=$(stat -c %s "$big")

# The peer: sed rewriting the Style Fontname field and every \fn argument (it cannot tell blocks from text).
sed_script=(-E -e 's/^(Style:[^,]*,)[^,]*/\1Noto Sans CJK SC/' -e 's/\\fn[^\\})]+/\\fnNoto Sans CJK SC/g')

now() { date +%s.%N; }
best_of() {  # best_of N command... -> fastest wall time in seconds
    local n=$1 best=999999 t0 t1 t
    shift
    for _ in $(seq "$n"); do
        t0=$(now); "$@" >/dev/null; t1=$(now)
        t=$(echo "$t1 - $t0" | bc -l)
        if (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    done
    printf '%.3f' "$best"
}
peak_kb() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'; }

run_subfix_big() { rm -rf "$out/fixed-big"; "$bin" fix "$big" --out "$out/fixed-big" --jobs 1; }
run_sed_big() { sed "${sed_script[@]}" "$big" > "$out/sed-big.ass"; }

t_subfix=$(best_of 3 run_subfix_big)
t_sed=$(best_of 3 run_sed_big)
mb=$(echo "$size / 1048576" | bc -l)
rm -rf "$out/fixed-big"
mem_kb=$(peak_kb "$bin" fix "$big" --out "$out/fixed-big" --jobs 1)
printf 'big ASS: %.1f MB, %d events\n' "$mb" "$events"
printf '  subfix fix --jobs 1   %6.3f s  %6.1f MB/s\n' "$t_subfix" "$(echo "$mb / $t_subfix" | bc -l)"
printf '  GNU sed               %6.3f s  %6.1f MB/s\n' "$t_sed" "$(echo "$mb / $t_sed" | bc -l)"
printf '  throughput ratio      %.2fx sed (target >= 3x)\n' "$(echo "$t_sed / $t_subfix" | bc -l)"
printf '  peak memory           %.1f MB = %.2fx the file (target < 4x)\n' \
    "$(echo "$mem_kb / 1024" | bc -l)" "$(echo "$mem_kb * 1024 / $size" | bc -l)"

count=$(find "$out/small" -type f | wc -l)
run_subfix_small() { rm -rf "$out/fixed-small"; "$bin" fix "$out/small" --out "$out/fixed-small" --jobs 2; }
run_sed_small() {
    find "$out/small" -type f -print0 | xargs -0 -n 50 -P2 sed -i.sedbak "${sed_script[@]}"
    find "$out/small" -name '*.sedbak' -delete
}
# sed edits in place, so it runs on a copy that is restored between runs.
cp -r "$out/small" "$out/small-pristine"
t_small_subfix=$(best_of 3 run_subfix_small)
t_small_sed=$(best_of 3 run_sed_small)
rm -rf "$out/small" && mv "$out/small-pristine" "$out/small"
printf '%d small files:\n' "$count"
printf '  subfix fix --jobs 2   %6.3f s\n' "$t_small_subfix"
printf '  xargs -P2 sed         %6.3f s\n' "$t_small_sed"
printf '  ratio                 %.2fx sed\n' "$(echo "$t_small_sed / $t_small_subfix" | bc -l)"
