#!/usr/bin/env bash
# `subfix index` and `subfix search` on a generated corpus of 1,000,000 dialogue lines (Chinese, Japanese, English,
# mixed scripts and full-width forms) in 1,000 SRT files, against SQLite's trigram tokenizer over the same lines
# and ripgrep over the same files, measured in the same run.
# Targets: index >= 150,000 lines/s on 2 cores; database <= 3x the raw text; search p50 <= 5 ms and
# p99 <= 50 ms for 20 hits, for 1-, 2- and 4-character CJK queries and English words.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/subfix
bench=.build/release/search-bench
lines=${SEARCH_BENCH_LINES:-1000000}
out=bench-out/search
corpus=$out/corpus-$lines
db=$out/library.sqlite
[ -x "$bin" ] && [ -x "$bench" ] || { echo "search.sh: build first: swift build -c release" >&2; exit 1; }
export LC_ALL=C.UTF-8
mkdir -p "$out"
[ -s "$corpus.txt" ] || perl Benchmarks/search-generate.pl "$corpus" "$lines"
raw=$(stat -c %s "$corpus.txt")
files=$(du -sb "$corpus" | cut -f1)

now() { date +%s.%N; }
rm -f "$db" "$db-wal" "$db-shm"
t0=$(now)
/usr/bin/time -v "$bin" index "$corpus" --db "$db" --jobs 2 2> "$out/index.time" >/dev/null
t1=$(now)
seconds=$(echo "$t1 - $t0" | bc -l)
peak_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/index.time")
cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u + s}' "$out/index.time")
size=$(( $(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0) ))
printf 'corpus: %d lines, %.1f MB of text in %.1f MB of SRT files\n' "$lines" "$(echo "$raw / 1048576" | bc -l)" \
    "$(echo "$files / 1048576" | bc -l)"
printf 'machine: %s cores, load average %s (other jobs share them: wall-clock rates vary from run to run)\n' \
    "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'index build (--jobs 2)   %7.2f s  %9.0f lines/s (target >= 150000)  peak memory %.0f MB\n' "$seconds" \
    "$(echo "$lines / $seconds" | bc -l)" "$(echo "$peak_kb / 1024" | bc -l)"
printf '                         %7.2f s of CPU (user + system, both cores)\n' "$cpu"
printf 'database size            %7.1f MB  %.2fx the raw text (target <= 3x)\n' "$(echo "$size / 1048576" | bc -l)" \
    "$(echo "$size / $raw" | bc -l)"

# Query latency, in process (no start-up cost), and the trigram peer built from the same lines.
"$bench" "$db" "$corpus.txt" "$out/trigram.sqlite" > "$out/latency.txt"
tri_size=$(stat -c %s "$out/trigram.sqlite")
tri_build=$(awk '/^trigram build/ {print $3}' "$out/latency.txt")
printf 'trigram build (1 core)   %7.2f s  %9.0f lines/s; its database %.1f MB = %.2fx the raw text\n' "$tri_build" \
    "$(echo "$lines / $tri_build" | bc -l)" "$(echo "$tri_size / 1048576" | bc -l)" "$(echo "$tri_size / $raw" | bc -l)"
echo
echo 'search latency for 20 hits, 200 queries per class sampled from the corpus (ms):'
printf '  %-8s %20s %26s %24s\n' class 'subfix p50 / p99' 'trigram p50 / p99 (hits)' 'ripgrep median (10 q.)'
for class in cjk1 cjk2 cjk4 english; do
    read -r _ _ _ s50 _ s99 _ shits < <(grep "^subfix $class " "$out/latency.txt")
    read -r _ _ _ t50 _ t99 _ thits < <(grep "^trigram $class " "$out/latency.txt")
    read -r -a queries < <(grep "^queries $class " "$out/latency.txt" | cut -d' ' -f3-)
    times=()
    for query in "${queries[@]}"; do
        q0=$(now); rg -F -c -- "$query" "$corpus" > /dev/null || true; q1=$(now)
        times+=("$(echo "($q1 - $q0) * 1000" | bc -l)")
    done
    rg_median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '  %-8s %9.2f / %7.2f %12.2f / %7.2f (%4.1f) %14.1f   (subfix %.1f hits)\n' "$class" "$s50" "$s99" \
        "$t50" "$t99" "$thits" "$rg_median" "$shits"
done
echo '  (trigram: 1- and 2-character queries cannot use its index and scan its content table; ripgrep counts'
echo '   every match in every file, unranked)'
