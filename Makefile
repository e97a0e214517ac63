# subfix: two commands do everything on a fresh Debian 12 machine: `make demo` and `make test`.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build needs (C libraries through pkg-config) and the peers the tests use as oracles.
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
# postgresql (the server, run as an unprivileged user in a temporary folder) backs the PostgreSQL library tests.
TEST_PACKAGES  := ffmpeg fonts-noto-cjk fonts-dejavu-core chromium groff-base man-db zsh fish bash-completion dpkg-dev \
                  postgresql
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
# The Debian package tools `make deb` runs (dpkg-deb, dpkg-shlibdeps).
DEB_PACKAGES := dpkg-dev
# `make deb-check` makes its clean Debian 12 root with debootstrap.
DEB_CHECK_PACKAGES := debootstrap

.PHONY: all deps bench-deps build static-cxx release demo test lint bench fuzz clean dist-build install uninstall deb deb-check

all: build

# Idempotent: asks dpkg what is missing and installs only that, through sudo when not root.
deps:
	@./.ci/install-packages $(BUILD_PACKAGES) $(TEST_PACKAGES)

bench-deps:
	@./.ci/install-packages $(BUILD_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES)

build:
	swift build $(SWIFT_BUILD_FLAGS)

# The Swift runtime, Foundation and libstdc++ linked statically: ~10 ms less CPU at every start (issue 18,
# `subfix search`).
release: static-cxx
	swift build $(DIST_BUILD_FLAGS) $(SWIFT_BUILD_FLAGS)

# Without libstdc++.a (another compiler), the folder stays empty and the linker takes the shared library.
static-cxx:
	@mkdir -p $(STATIC_CXX); archive="$$(clang -print-file-name=libstdc++.a 2>/dev/null)"; \
	if [ -f "$$archive" ]; then ln -sfn "$$archive" $(STATIC_CXX)/libstdc++.a; else rm -f $(STATIC_CXX)/libstdc++.a; fi

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

dist-build: static-cxx
	@./.ci/install-packages $(BUILD_PACKAGES)
	swift build $(DIST_BUILD_FLAGS) --product subfix $(SWIFT_BUILD_FLAGS)

# The binary, the bundled font (found by the binary as ../share/subfix/fonts), man pages and bash/zsh/fish
# completions, the last two printed by the binary from its command table (`subfix --generate ...`).
install: dist-build
	@./Scripts/install-tree.sh install "$(DIST_BIN)" "$(DESTDIR)" "$(PREFIX)"

uninstall:
	@./Scripts/install-tree.sh uninstall "$(DESTDIR)" "$(PREFIX)"

# subfix_VERSION_ARCH.deb in the checkout, installable with `apt install ./subfix_*.deb` (Depends computed from the
# libraries the binary links and opens).
deb: dist-build
	@./.ci/install-packages $(DEB_PACKAGES)
	@./Scripts/make-deb.sh "$(DIST_BIN)" .

# As root, with the Debian mirror reachable: the package `make deb` built, installed with apt into a clean Debian 12
# root (debootstrap, made once and cached in .build/deb-check), then `subfix --version`, `probe` and `fix` run there.
# Not part of `make test`: the first run downloads a base system and FFmpeg's libraries (about 3 minutes).
deb-check: deb
	@./.ci/install-packages $(DEB_CHECK_PACKAGES)
	@./Scripts/deb-check.sh "$$(ls -t subfix_*_$$(dpkg --print-architecture).deb | head -1)" .build/deb-check

bench: bench-deps release
	@./Benchmarks/run.sh

# The committed .swift-format keeps everyone's code alike (4 spaces, 120 columns, no force unwraps or try!).
lint:
	swift format lint --strict --recursive Sources Tests Benchmarks Package.swift

clean:
	rm -rf .build
