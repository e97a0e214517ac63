#!/usr/bin/env bash
# The library on PostgreSQL: indexing the search benchmark's corpus (1,000,000 lines in 1,000 SRT files) through
# the shared queue with 1, 2 and 3 workers, against `subfix index` into SQLite in the same run; then search
# p50/p99 on PostgreSQL for the same query classes as search.sh (1-, 2- and 4-character CJK runs, English words),
# each a `subfix search` process (start-up and connection included).
# The server is Debian's PostgreSQL 15, started in bench-out/postgres as an unprivileged user, stopped at the end.
# At 1M lines the run takes about 18 minutes on a shared 2-core machine (1 worker alone ~8 minutes);
# POSTGRES_BENCH_LINES=100000 gives the same table on a tenth of the corpus (not timed here).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SUBFIX_BIN:-.build/release/subfix}
lines=${POSTGRES_BENCH_LINES:-1000000}
out=bench-out/postgres
corpus=bench-out/search/corpus-$lines
pgbin=/usr/lib/postgresql/15/bin
[ -x "$bin" ] || { echo "postgres.sh: build first: swift build -c release" >&2; exit 1; }
[ -x "$pgbin/initdb" ] || { echo "postgres.sh: install postgresql (make bench-deps)" >&2; exit 1; }
export LC_ALL=C.UTF-8
mkdir -p bench-out/search "$out"
[ -s "$corpus.txt" ] || perl Benchmarks/search-generate.pl "$corpus" "$lines"

# The server, as an unprivileged user when run as root (PostgreSQL refuses root).
as=()
if [ "$(id -u)" = 0 ]; then
    id -u subfix-test >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin subfix-test
    as=(runuser -u subfix-test --)
fi
data=$(mktemp -d /tmp/subfix-bench-pg.XXXXXX)
[ ${#as[@]} -gt 0 ] && chown subfix-test "$data"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as[@]}" "$pgbin/initdb" -D "$data/data" -U subfix --auth-local=trust --auth-host=trust -E UTF8 --locale=C \
    --no-sync > "$out/initdb.log"
"${as[@]}" "$pgbin/pg_ctl" -D "$data/data" -l "$data/server.log" -w -o \
    "-p $port -k $data -c listen_addresses=127.0.0.1 -c max_connections=50 -c shared_buffers=256MB" start >/dev/null
trap '"${as[@]}" "$pgbin/pg_ctl" -D "$data/data" -m fast -w stop >/dev/null; rm -rf "$data"' EXIT

now() { date +%s.%N; }
printf 'corpus: %d lines in %s\n' "$lines" "$corpus"
printf 'machine: %s cores, load average %s (other jobs share them: wall-clock rates vary from run to run)\n' \
    "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"

rm -f "$out/library.sqlite"*
t0=$(now)
"$bin" index "$corpus" --db "$out/library.sqlite" --jobs 2 > /dev/null
t1=$(now)
sqlite_s=$(echo "$t1 - $t0" | bc -l)
printf 'SQLite   index --jobs 2     %7.2f s  %9.0f lines/s\n' "$sqlite_s" "$(echo "$lines / $sqlite_s" | bc -l)"

for workers in 1 2 3; do
    name=bench_$workers
    "${as[@]}" "$pgbin/dropdb" --if-exists -h "$data" -p "$port" -U subfix "$name" 2>/dev/null
    "${as[@]}" "$pgbin/createdb" -h "$data" -p "$port" -U subfix "$name"
    url="postgresql://subfix@127.0.0.1:$port/$name"
    "$bin" queue add "$corpus" --db "$url" > /dev/null
    t0=$(now)
    pids=()
    for _ in $(seq "$workers"); do "$bin" worker --db "$url" > /dev/null & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
    t1=$(now)
    s=$(echo "$t1 - $t0" | bc -l)
    # The planner's statistics, as autovacuum would gather them soon after a bulk load: the rank window's plan
    # (read the newest matches through the primary key for a common character) is chosen from them.
    "${as[@]}" "$pgbin/psql" -h "$data" -p "$port" -U subfix -d "$name" -qc "ANALYZE"
    size=$("${as[@]}" "$pgbin/psql" -h "$data" -p "$port" -U subfix -d "$name" -Atc \
        "SELECT pg_total_relation_size('dialogue_line') / 1048576")
    printf 'Postgres %d worker(s)        %7.2f s  %9.0f lines/s  (%.2fx SQLite; dialogue_line with GIN %s MB)\n' \
        "$workers" "$s" "$(echo "$lines / $s" | bc -l)" "$(echo "$sqlite_s / $s" | bc -l)" "$size"
    "$bin" queue status --db "$url"
done

url="postgresql://subfix@127.0.0.1:$port/bench_3"
echo
echo 'search latency on PostgreSQL for 20 hits, 50 queries per class from the corpus, one process each (ms):'
perl -CSD -ne 'BEGIN { srand(7) } chomp; push @l, $_; END {
    for my $class ([cjk1 => 1], [cjk2 => 2], [cjk4 => 4]) {
        my ($name, $n) = @$class; my $k = 0; my $tries = 0;
        while ($k < 50 && $tries++ < 100000) { my $t = $l[int rand @l];
            my @c = ($t =~ /(\p{sc=Han}{$n})/g); next unless @c; print "$name $c[int rand @c]\n"; $k++ } }
    my $k = 0; my $tries = 0;
    while ($k < 50 && $tries++ < 100000) { my $t = $l[int rand @l]; my @w = ($t =~ /\b([a-z]{4,})\b/g);
        next unless @w; print "english $w[int rand @w]\n"; $k++ } }' "$corpus.txt" > "$out/queries.txt"
for class in cjk1 cjk2 cjk4 english; do
    times=()
    while read -r _ query; do
        q0=$(now); "$bin" search "$query" --db "$url" --limit 20 > /dev/null || true; q1=$(now)
        times+=("$(echo "($q1 - $q0) * 1000" | bc -l)")
    done < <(grep "^$class " "$out/queries.txt")
    printf '%s\n' "${times[@]}" | sort -g | awk -v c="$class" '{a[NR]=$1} END {
        printf "  %-8s p50 %8.1f   p99 %8.1f   (%d queries)\n", c, a[int((NR+1)/2)], a[int(NR*0.99+0.999)], NR }'
done
