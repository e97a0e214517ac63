#!/usr/bin/env bash
# Encoding detection of `subfix` (every candidate encoding decoded through iconv and weighed as text) against
# uchardet's own CLI (byte statistics only) over the same 5,000 small legacy-encoded SRT files (1 to 5 cues, 15
# languages, 22 encodings, one language per file), measured in the same run. Prints the cost per file of each,
# their ratio, and how many files subfix decoded right, refused and decoded wrong (the target: none wrong).
set -euo pipefail
cd "$(dirname "$0")/.."
bench=.build/release/encoding-bench
files=${ENCODING_BENCH_FILES:-5000}
out=bench-out/encoding
[ -x "$bench" ] || { echo "encoding.sh: build first: swift build -c release" >&2; exit 1; }
command -v uchardet >/dev/null || { echo "encoding.sh: uchardet's CLI is missing: make bench-deps" >&2; exit 1; }
export LC_ALL=C.UTF-8
mkdir -p "$out"
[ -d "$out/files-$files" ] || "$bench" generate "$out/files-$files" "$files"
list=("$out/files-$files"/*.srt)

now() { date +%s.%N; }
best_of() {  # best_of N command... -> fastest wall time in seconds
    local n=$1 best=999999 t0 t1 t
    shift
    for _ in $(seq "$n"); do
        t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
        t=$(echo "$t1 - $t0" | bc -l)
        if (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    done
    printf '%.3f' "$best"
}

t_subfix=$(best_of 3 "$bench" detect "${list[@]}")
t_uchardet=$(best_of 3 uchardet "${list[@]}")
verdict=$("$bench" detect "${list[@]}" 2>&1 >/dev/null)
printf 'files: %d small SRT files in legacy encodings (%s)\n' "${#list[@]}" "$out/files-$files"
printf 'machine: %s cores, load average %s\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'subfix detection   %7.3f s  %7.1f us/file  (%s)\n' "$t_subfix" \
    "$(echo "$t_subfix * 1000000 / ${#list[@]}" | bc -l)" "$verdict"
printf 'uchardet CLI       %7.3f s  %7.1f us/file\n' "$t_uchardet" "$(echo "$t_uchardet * 1000000 / ${#list[@]}" | bc -l)"
printf 'ratio subfix/uchardet: %.2fx the time per file\n' "$(echo "$t_subfix / $t_uchardet" | bc -l)"
