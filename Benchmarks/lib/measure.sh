# Sourced by the benchmarks: `measure CMD...` runs CMD $REPEAT (else $repeat) times under GNU time and prints
# "best_wall_seconds peak_rss_kb". Needs $work (a folder for GNU time's log).
measure() {
    local best="" peak=0 log=$work/time.log
    for _ in $(seq "${REPEAT:-$repeat}"); do
        /usr/bin/time -v -o "$log" "$@" > /dev/null
        local wall rss
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0;
            for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
        rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
        if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall; fi
        [ "$rss" -gt "$peak" ] && peak=$rss
    done
    echo "$best $peak"
}
