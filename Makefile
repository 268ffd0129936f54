# Fanorona Lab: `make run` and `make test` set up a fresh Debian machine, build, and run.

BUILD    ?= build
JOBS     ?= 2
PACKAGES := cmake g++ make libeigen3-dev libtbb-dev libcli11-dev catch2 nlohmann-json3-dev libzstd-dev zlib1g-dev libopenmpi-dev openmpi-bin
FANORONA := $(BUILD)/tools/fanorona
# Only `make test` needs these: the report test loads the HTML report in headless Chromium.
TEST_PACKAGES := chromium
# A clean build prints no compiler warning. WERROR=ON (CMake's FANORONA_WERROR) makes every warning
# an error: CI (.ci/run) passes it to `make test`, `make sanitize` and `make tsan`, so a new warning
# fails CI. It is off by default, so that a user whose newer compiler warns about something new
# still builds and runs (`make run`). Every configure step passes the value, so switching it
# rebuilds the build folder with the other flags.
WERROR   ?= OFF

.PHONY: corpus corpus-status corpus-stop corpus-chunk all deps test-deps configure build program run test bench asan-configure sanitize tsan fuzz format clean

all: build

# Installs the Debian packages that are missing (as root), or prints the line to run.
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing packages; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DFANORONA_WERROR=$(WERROR) >/dev/null

# Every target of the default build: the program, the tests and the fuzz corpora's replays.
build: configure
	@cmake --build $(BUILD) -j$(JOBS)

# Only the program, what the main job needs (the tests are built by `make test`).
program: configure
	@cmake --build $(BUILD) -j$(JOBS) --target fanorona

# The main job: a short closed loop (self-play, tune, verify) from deliberately weak weights.
# It resumes where it stopped if interrupted; `rm -rf runs/main` starts it afresh. Builds only
# the program it runs (`make test` builds the tests).
run: program
	$(FANORONA) loop --weights data/weights/weak.txt --out runs/main --resume

# The corpus self-play (data/corpus/README.md): `make corpus` starts or resumes it in the background
# at the lowest priority on one thread (THREADS=2: two) and reports it; corpus-stop stops it (it resumes);
# corpus-chunk stops it and writes its next chunks into data/corpus, to commit with their rows.
corpus: program
	@tools/corpus.sh start
corpus-status:
	@tools/corpus.sh status
corpus-stop:
	@tools/corpus.sh stop
corpus-chunk: program
	@tools/corpus.sh chunk

# Installs the test-only packages as root when missing; without root the browser test is skipped.
test-deps:
	@for p in $(TEST_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" && continue; \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $$p (for the report's browser test)"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$p >/dev/null) || \
	      echo "could not install $$p: the browser test will be skipped (it fails under CI=true)"; \
	  else \
	    echo "$$p is missing (sudo apt-get install -y $$p): the browser test will be skipped (it fails under CI=true)"; \
	  fi; \
	done

# Builds everything, the benchmark helpers too (not in the default build, but compiled here so
# that CI sees their warnings), and runs every test.
test: build test-deps
	@cmake --build $(BUILD) -j$(JOBS) --target make_positions make_endings
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

bench: build
	FANORONA=$(FANORONA) OUT=$(BUILD)/bench/perft.json tools/bench/perft.sh
	$(FANORONA) bench

# One clang++ build (FANORONA_FUZZ, in $(BUILD)-asan) serves the sanitizer tests and the fuzzers:
# every library with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation, assertions on, -O1 (the level ASan recommends) and line tables only (reports
# name file and line; the build stays short). `make sanitize` runs the tests in it (not [slow],
# not [mpi]: the build has no MPI), JOBS processes side by side (tests/run_split.sh), then every
# libFuzzer target for CI_FUZZ_SECONDS from its seed corpus: CI fuzzes briefly, `make fuzz` for
# longer.
ASAN_PACKAGES := clang libclang-rt-14-dev
CI_FUZZ_SECONDS ?= 10
asan-configure: deps
	@$(MAKE) --no-print-directory deps PACKAGES="$(ASAN_PACKAGES)"
	@cmake -S . -B $(BUILD)-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
	  "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DFANORONA_FUZZ=ON -DFANORONA_MPI=OFF \
	  -DFANORONA_WERROR=$(WERROR) >/dev/null

sanitize: asan-configure
	@cmake --build $(BUILD)-asan -j$(JOBS) --target fanorona_tests fuzz
	tests/run_split.sh $(BUILD)-asan/tests/fanorona_tests '~[slow]~[mpi]' $(JOBS)
	tests/fuzz/run.sh $(BUILD)-asan $(CI_FUZZ_SECONDS) $(JOBS)

# A build of the tests with ThreadSanitizer (optimised, with line tables), running the tests
# that use threads: the oneTBB game driver, self-play, tournaments, series, openings, SPSA, the
# tuner, and the engine protocol (std::thread). Not the MPI tests (Open MPI is not instrumented).
# Debian's libtbb is not built with TSan: core/common/fork_join.h states to TSan the orderings oneTBB
# guarantees to the project's task bodies, and tests/tsan.supp (each entry says why) hides only
# TBB's own bookkeeping. Any report fails the run. die_after_fork=0: the engine out-of-memory
# test runs the protocol in a forked child, which starts threads.
# The build compiles only the test files that use these tags (FANORONA_TEST_TAGS).
TSAN_TAGS ?= driver selfplay tournament series openings spsa tuner protocol
comma := ,
TSAN_TESTS := $(subst $() $(),$(comma),$(foreach tag,$(TSAN_TAGS),[$(tag)]~[slow]~[mpi]))
tsan: deps
	@cmake -S . -B $(BUILD)-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" -DFANORONA_TSAN=ON \
	  "-DFANORONA_TEST_TAGS=$(subst $() $(),;,$(strip $(TSAN_TAGS)))" -DFANORONA_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD)-tsan -j$(JOBS) --target fanorona_tests
	TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 second_deadlock_stack=1 die_after_fork=0" \
	  tests/run_split.sh $(BUILD)-tsan/tests/fanorona_tests '$(TSAN_TESTS)' $(JOBS)

# The libFuzzer targets of tests/fuzz (the build of `make sanitize`), each run FUZZ_SECONDS from
# its seed corpus, JOBS at a time; prints executions per second per target (also
# $(BUILD)-asan/fuzz.json). Inputs that crash are left in $(BUILD)-asan/fuzz-artifacts/; `make
# fuzz` then fails.
FUZZ_SECONDS ?= 60
fuzz: asan-configure
	@cmake --build $(BUILD)-asan --target fuzz -j$(JOBS)
	tests/fuzz/run.sh $(BUILD)-asan $(FUZZ_SECONDS) $(JOBS)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-tsan
