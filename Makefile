# subfix: two commands do everything on a fresh Debian 12 machine: `make demo` and `make test`.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build needs (C libraries through pkg-config) and the peers the tests use as oracles.
BUILD_PACKAGES := libsqlite3-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev \
                  libass-dev libfreetype-dev libfontconfig1-dev libharfbuzz-dev libuchardet-dev libpq-dev pkg-config
# ffmpeg is the oracle the tests compare against; fonts-noto-cjk gives the font-collection (TTC) tests a real
# collection; fonts-dejavu-core is the Latin-only font of the demo's sandboxed-player step.
# chromium opens the page `subfix report` writes, headless, to prove it loads cleanly and runs no hostile script.
# postgresql (the server, run as an unprivileged user in a temporary folder) backs the PostgreSQL library tests.
TEST_PACKAGES  := ffmpeg fonts-noto-cjk fonts-dejavu-core chromium postgresql
# Peers measured by `make bench` (hb-subset and pyftsubset for font subsets, uchardet's own CLI for encoding
# detection), GNU time for peak memory, bc and perl for the scripts' arithmetic and inputs.
BENCH_PACKAGES := ripgrep time sqlite3 bc perl python3 libharfbuzz-bin python3-fonttools uchardet

SWIFT_BUILD_FLAGS ?=
BIN := .build/debug/subfix

.PHONY: all deps bench-deps build release demo test lint bench fuzz clean

all: build

# Idempotent: asks dpkg what is missing and installs only that, through sudo when not root.
deps:
	@./.ci/install-packages $(BUILD_PACKAGES) $(TEST_PACKAGES)

bench-deps:
	@./.ci/install-packages $(BUILD_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES)

build:
	swift build $(SWIFT_BUILD_FLAGS)

release:
	swift build -c release $(SWIFT_BUILD_FLAGS)

demo: deps build
	@./Scripts/demo.sh $(BIN)

test: deps lint
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --disable-xctest  # every suite is Swift Testing
	@./Scripts/fuzz.sh 5 --loop  # a few seconds of the fuzz target as a smoke run

# `make fuzz FUZZ_SECONDS=600`: libFuzzer over the parsers, rewriter, encoding detector and dialogue tokenizer
# (through `swiftc -sanitize=fuzzer`, in .build/fuzz), or the deterministic mutation loop where that cannot link.
FUZZ_SECONDS ?= 60
fuzz:
	@./Scripts/fuzz.sh $(FUZZ_SECONDS)

bench: bench-deps release
	@./Benchmarks/run.sh

# The committed .swift-format keeps everyone's code alike (4 spaces, 120 columns, no force unwraps or try!).
lint:
	swift format lint --strict --recursive Sources Tests Benchmarks Package.swift

clean:
	rm -rf .build
