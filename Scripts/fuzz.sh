#!/usr/bin/env bash
# Fuzzes the subtitle parsers, the rewriter, the encoding detector, the dialogue tokenizer, [Fonts] data, font
# files and subsets, the library's SQL and the bitmap decoders (subfix-fuzz) for
# SECONDS seconds: with libFuzzer when `swiftc -sanitize=fuzzer` builds here, else with the deterministic
# mutation loop. Crashing inputs are kept under .build/fuzz-crashes/; the corpus grows in .build/fuzz-corpus/.
#   Scripts/fuzz.sh 300          # five minutes, libFuzzer if it links
#   Scripts/fuzz.sh 5 --loop     # the CI smoke run: the mutation loop on the normal debug build
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
mode="${2:-}"
mkdir -p .build/fuzz-crashes .build/fuzz-corpus

if [[ "$mode" != "--loop" ]] \
    && swift build --build-path .build/fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DSUBFIX_LIBFUZZER \
        --product subfix-fuzz 2>&1 | tail -3; then
    if [[ -x .build/fuzz/debug/subfix-fuzz ]]; then
        echo "fuzz: libFuzzer for ${seconds} s"
        # Swift's own crash reporter would take the trap first and libFuzzer would keep no crashing input.
        SWIFT_BACKTRACE=enable=no exec .build/fuzz/debug/subfix-fuzz -max_total_time="$seconds" -max_len=16384 \
            -timeout=10 -rss_limit_mb=2048 -artifact_prefix=.build/fuzz-crashes/ .build/fuzz-corpus Samples Tests/Fuzz
    fi
fi

echo "fuzz: mutation loop for ${seconds} s"
swift build --product subfix-fuzz 2>&1 | tail -1
# The smoke run seeds only from the checkout, so it is the same on every machine.
corpus=(Samples Tests/Fuzz)
[[ "$mode" == "--loop" ]] || corpus+=(.build/fuzz-corpus)
exec .build/debug/subfix-fuzz --seconds "$seconds" --crash .build/fuzz-crashes/loop-crash.bin "${corpus[@]}"
