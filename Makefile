# subfix: two commands do everything on a fresh Debian 12 machine: `make demo` and `make test`.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build needs (C libraries through pkg-config) and the peers the tests use as oracles.
# Swift 6 itself is not a Debian package: the swift.org toolchain for Debian 12, unpacked in /opt/swift (README).
BUILD_PACKAGES := libsqlite3-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev \
                  libass-dev libfreetype-dev libfontconfig1-dev libharfbuzz-dev libuchardet-dev libpq-dev pkg-config \
                  $(OCR_PACKAGES)
# Tesseract (bound on first use, like FFmpeg) and the language data `--ocr` reads bitmap subtitle tracks with.
OCR_PACKAGES   := libtesseract-dev tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-chi-tra tesseract-ocr-jpn \
                  tesseract-ocr-jpn-vert tesseract-ocr-kor
# ffmpeg is the oracle the tests compare against; fonts-noto-cjk gives the font-collection (TTC) tests a real
# collection; fonts-dejavu-core is the Latin-only font of the demo's sandboxed-player step.
# chromium opens the page `subfix report` writes, headless, to prove it loads cleanly and runs no hostile script.
# The install tests check the generated man pages with groff and man-db, the completions with zsh -n and fish -n
# (and bash-completion's loader), and build the Debian package with dpkg-dev (dpkg-shlibdeps).
# postgresql (the server, run as an unprivileged user in a temporary folder) backs the PostgreSQL library tests;
# the sqlite3 shell is the other process that holds a lock in SubDB's busy tests.
# lintian checks the package the install tests build (as `make deb-check` checks the release one).
TEST_PACKAGES  := ffmpeg fonts-noto-cjk fonts-dejavu-core chromium groff-base man-db zsh fish bash-completion dpkg-dev \
                  postgresql lintian sqlite3
# What an installed subfix uses at run time beyond the libraries it links: the CJK faces `--font auto` picks
# (fonts-noto-cjk: Sans and Serif, Regular and Bold, as .ttc collections). `make install` installs them, and the
# .deb recommends them (apt installs Recommends by default).
RUNTIME_PACKAGES := fonts-noto-cjk
# Peers measured by `make bench` (hb-subset and pyftsubset for font subsets, uchardet's own CLI for encoding
# detection), GNU time for peak memory, bc and perl for the scripts' arithmetic and inputs.
# The tesseract CLI is the OCR peer, run on the same bitmaps.
BENCH_PACKAGES := ripgrep time sqlite3 bc perl python3 libharfbuzz-bin python3-fonttools uchardet strace tesseract-ocr

SWIFT_BUILD_FLAGS ?=
BIN := .build/debug/subfix

# `make install PREFIX=/usr/local DESTDIR=`: where `make install` and `make uninstall` put subfix (see
# Scripts/install-tree.sh for the layout). The binary they ship is a release build with Swift's runtime linked in,
# so it runs where the toolchain is not (a Debian package cannot depend on it); `make deb` ships the same one.
PREFIX ?= /usr/local
DESTDIR ?=
# Release builds link libstdc++ statically too. The Swift runtime is its only user, and loading the shared library
# cost 1.2-1.5 ms at every start (issue 18, `subfix search`). The linker searches this folder, which holds only
# libstdc++.a, before the compiler's own, which also holds libstdc++.so.
STATIC_CXX := $(CURDIR)/.build/static-libstdc++
DIST_BUILD_FLAGS := -c release --static-swift-stdlib -Xswiftc -L$(STATIC_CXX)
DIST_BIN = $(shell swift build $(DIST_BUILD_FLAGS) --show-bin-path)/subfix
# The Debian package tools `make deb` runs (dpkg-deb, dpkg-shlibdeps; binutils' objcopy and strip split off the
# debug symbols) and lintian, which `make deb-check` runs on the package.
DEB_PACKAGES := dpkg-dev binutils lintian
# `make deb-check` makes its clean Debian 12 root with debootstrap.
DEB_CHECK_PACKAGES := debootstrap

.PHONY: all have-swift deps bench-deps build static-cxx release demo test lint bench fuzz clean dist-build install uninstall deb deb-check

all: build

# Every target that compiles asks first: without Swift, one line saying where to get it instead of make's
# `swift: command not found` and Error 127.
have-swift:
	@command -v swift >/dev/null || { echo "make: swift not found: install the Swift 6 toolchain for Debian 12 from https://www.swift.org/install/linux/ into /opt/swift (or put its usr/bin on PATH); see README.md" >&2; exit 1; }

# Idempotent: asks dpkg what is missing and installs only that, through sudo when not root.
deps:
	@./.ci/install-packages $(BUILD_PACKAGES) $(TEST_PACKAGES) $(RUNTIME_PACKAGES)

bench-deps:
	@./.ci/install-packages $(BUILD_PACKAGES) $(TEST_PACKAGES) $(RUNTIME_PACKAGES) $(BENCH_PACKAGES)

build: have-swift
	swift build $(SWIFT_BUILD_FLAGS)

# The Swift runtime, Foundation and libstdc++ linked statically: ~10 ms less CPU at every start (issue 18,
# `subfix search`).
release: have-swift static-cxx
	swift build $(DIST_BUILD_FLAGS) $(SWIFT_BUILD_FLAGS)

# Without libstdc++.a (another compiler), the folder stays empty and the linker takes the shared library.
static-cxx:
	@mkdir -p $(STATIC_CXX); archive="$$(clang -print-file-name=libstdc++.a 2>/dev/null)"; \
	if [ -f "$$archive" ]; then ln -sfn "$$archive" $(STATIC_CXX)/libstdc++.a; else rm -f $(STATIC_CXX)/libstdc++.a; fi

demo: deps build
	@./Scripts/demo.sh $(BIN)

test: deps have-swift lint
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --disable-xctest  # every suite is Swift Testing
	@./Scripts/fuzz.sh 5 --loop  # a few seconds of the fuzz target as a smoke run

# `make fuzz FUZZ_SECONDS=600`: libFuzzer over the parsers, rewriter, encoding detector and dialogue tokenizer
# (through `swiftc -sanitize=fuzzer`, in .build/fuzz), or the deterministic mutation loop where that cannot link.
FUZZ_SECONDS ?= 60
fuzz: have-swift
	@./Scripts/fuzz.sh $(FUZZ_SECONDS)

dist-build: have-swift static-cxx
	@./.ci/install-packages $(BUILD_PACKAGES)
	swift build $(DIST_BUILD_FLAGS) --product subfix $(SWIFT_BUILD_FLAGS)

# The binary, the bundled font (found by the binary as ../share/subfix/fonts), man pages and bash/zsh/fish
# completions, the last two printed by the binary from its command table (`subfix --generate ...`); and the CJK
# faces `--font auto` picks (RUNTIME_PACKAGES), as the .deb recommends them (a user who cannot install packages
# gets a warning, not a failed install).
install: dist-build
	@./.ci/install-packages $(RUNTIME_PACKAGES) || echo "install: warning: fonts-noto-cjk is not installed (run 'make deps' as root): --font auto will use the bundled Noto Sans CJK SC subset only" >&2
	@./Scripts/install-tree.sh install "$(DIST_BIN)" "$(DESTDIR)" "$(PREFIX)"

uninstall:
	@./Scripts/install-tree.sh uninstall "$(DESTDIR)" "$(PREFIX)"

# subfix_VERSION_ARCH.deb in the checkout, installable with `apt install ./subfix_*.deb` (Depends computed from the
# libraries the binary links and opens).
deb: dist-build
	@./.ci/install-packages $(DEB_PACKAGES)
	@./Scripts/make-deb.sh "$(DIST_BIN)" .

# As root, with the Debian mirror reachable: the package `make deb` built, checked by lintian (no error or
# warning), then installed with apt into a clean Debian 12 root (debootstrap, made once and cached in
# .build/deb-check), and `subfix --version`, `probe` and `fix` run there. Not part of `make test` (which runs
# lintian on a package of the debug build): the first run downloads a base system and FFmpeg's libraries (about
# 3 minutes).
deb-check: deb
	@./.ci/install-packages $(DEB_CHECK_PACKAGES)
	@deb="$$(ls -t subfix_*_$$(dpkg --print-architecture).deb | head -1)"; \
	./Scripts/lint-deb.sh "$$deb" && ./Scripts/deb-check.sh "$$deb" .build/deb-check

bench: bench-deps release
	@./Benchmarks/run.sh

# The committed .swift-format keeps everyone's code alike (4 spaces, 120 columns, no force unwraps or try!).
lint: have-swift
	swift format lint --strict --recursive Sources Tests Benchmarks Package.swift

clean:
	rm -rf .build
