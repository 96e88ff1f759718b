# cantonlite: the README's two commands (`make run`, `make test`) and a few helpers.
# Each installs missing Debian packages first (scripts/install-deps.sh).

SHELL      := /bin/bash
BUILD_DIR  ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?= -DCANTONLITE_WERROR=ON
ARGS       ?=
# Whether the main tree builds the unit tests and its ctest runs them (make test: OFF, as make asan
# runs them; make unit: ON).
UNIT_TESTS ?= ON

.PHONY: all deps configure build run test unit bench tsan san-configure asan fuzz docker-smoke format clean package

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCANTONLITE_UNIT_TESTS=$(UNIT_TESTS) $(CMAKE_ARGS) >/dev/null

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

# Builds the daemon and serves the shipped default network on 127.0.0.1:7575 (Ctrl-C stops it).
run: configure
	cmake --build $(BUILD_DIR) --target cantonlite -j$(JOBS)
	$(BUILD_DIR)/cantonlite serve $(ARGS)

# Builds everything but the unit tests, installs Debian's chromium for page.check, and runs the
# whole suite (ctest), then each fuzz target for TEST_FUZZ_SECONDS (below: `make fuzz`), the unit
# and integration suites under ASan and UBSan (`make asan`) and the concurrency tests under TSan
# (`make tsan`). The unit tests run under ASan only: compiled in both trees, they cost 260 s of a
# cold run.
TEST_FUZZ_SECONDS ?= 15
test:
	@$(MAKE) --no-print-directory build UNIT_TESTS=OFF
	@scripts/install-deps.sh chromium
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS)
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS)
	@$(MAKE) --no-print-directory asan
	@$(MAKE) --no-print-directory tsan

# The unit tests in the main tree, without sanitizers: the quick loop while developing
# (cantonlite_unit_tests --gtest_filter=… runs one test).
unit: configure
	cmake --build $(BUILD_DIR) --target cantonlite_unit_tests -j$(JOBS)
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS) -R '^(unit\.|postgres\.journal$$|bad_input\.)'

# The Debian package, cantonlite_<version>_amd64.deb, in the top folder (CPack; docs/deployment.md):
# /usr/bin/cantonlite, the networks in /usr/share/cantonlite, a systemd unit, not enabled.
# `apt install ./cantonlite_*_amd64.deb` installs it.
package: configure
	cmake --build $(BUILD_DIR) --target cantonlite -j$(JOBS)
	cd $(BUILD_DIR) && cpack -G DEB -B $(CURDIR)/$(BUILD_DIR)/package >/dev/null
	cp $(BUILD_DIR)/package/cantonlite_*_amd64.deb .
	@ls cantonlite_*_amd64.deb

# Throughput of every operation and the daemon's start-up and memory, as ratios to baselines of
# the same run (tests/bench/bench.cpp). BENCH_ARGS: e.g. --seconds 5 --generate 1000,1000000,10000
BENCH_ARGS ?=
bench: configure
	cmake --build $(BUILD_DIR) --target cantonlite cantonlite_bench -j$(JOBS)
	$(BUILD_DIR)/tests/bench/cantonlite_bench --bin $(BUILD_DIR)/cantonlite \
	  --seed config/default-network.json $(BENCH_ARGS)

# The sanitizer trees build at -O1 with line tables only (-g1): enough for their reports' stack
# traces, and about 45% less compile time than -O2 -g on these two cores. They compile the library
# in unity batches (CANTONLITE_UNITY_LIBRARY), as they are always built whole.
SAN_CMAKE := -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCANTONLITE_UNITY_LIBRARY=ON
SANITIZER_OPTIONS := halt_on_error=1:abort_on_error=1:print_stacktrace=1

# The concurrency tests under ThreadSanitizer, in their own tree (build-tsan) and executable:
# readers on every area while writers post steps, the journal's group commit, deferred answers
# over sockets, the store's readers and writers, the name table, the access log's lines and
# flushes, a state file loaded into a running network (and the old one freed on another thread),
# a state file written to disk as it is encoded, the PostgreSQL journal, and the server's
# concurrent clients, access-log flushes, second signal and descriptor exhaustion.
TSAN_TESTS ?= *ReadersNeverSeeHalfABatch*:*Concurrent*:*WrittenWhileItIsEncoded*:*LoadedInPlace*:*WhenDurable*:*PendingCallbacks*:JournaledDaemon.*:PostgresJournal.*:Server.FiftyConcurrentClientsAreAllAnswered:Server.AccessLogIsFlushed*:Server.ASecondSignal*:DescriptorExhaustion.*
tsan: deps
	@cmake -S . -B build-tsan $(SAN_CMAKE) -DCANTONLITE_SANITIZE=thread $(CMAKE_ARGS) >/dev/null
	cmake --build build-tsan --target cantonlite_concurrency_tests -j$(JOBS)
	TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/cantonlite_concurrency_tests --gtest_brief=1 \
	  --gtest_filter='$(TSAN_TESTS)'

# One tree, build-san, serves `make asan` and `make fuzz`: clang with AddressSanitizer and UBSan
# on every object, and libFuzzer's coverage on the library's (CANTONLITE_FUZZ), so the library is
# compiled once for the suites and the fuzz targets (docs/build.md). Without -Werror: the warnings
# that count are the main tree's.
SAN_TREE := build-san
san-configure: deps
	@scripts/install-deps.sh clang
	@CXX=clang++ cmake -S . -B $(SAN_TREE) $(SAN_CMAKE) -DCANTONLITE_SANITIZE=address \
	  -DCANTONLITE_FUZZ=ON -DCANTONLITE_WERROR=OFF >/dev/null

# The unit and integration suites under AddressSanitizer and UBSan (any report stops the run).
# DescriptorExhaustion reads the log through spdlog's ringbuffer_sink, a header whose call into the
# formatter libspdlog.so built trips UBSan's vptr check (the library's type_info seen as another
# type, under GCC and clang alike; no suppression applies): it runs in make test and make tsan.
ASAN_SKIP := -DescriptorExhaustion.*
# The unit tests run as two shards and the PostgreSQL journal's (one throwaway server for them),
# JOBS processes at a time, then the integration tests.
ASAN_RUN := ASAN_OPTIONS=$(SANITIZER_OPTIONS) UBSAN_OPTIONS=$(SANITIZER_OPTIONS)
ASAN_UNIT := $(ASAN_RUN) $(SAN_TREE)/tests/unit/cantonlite_unit_tests --gtest_brief=1
asan: san-configure
	cmake --build $(SAN_TREE) --target cantonlite_unit_tests cantonlite_integration_tests -j$(JOBS)
	@JOBS=$(JOBS) scripts/parallel.sh \
	  'GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=0 $(ASAN_UNIT) "--gtest_filter=-PostgresJournal.*"' \
	  'GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1 $(ASAN_UNIT) "--gtest_filter=-PostgresJournal.*"' \
	  '$(ASAN_UNIT) "--gtest_filter=PostgresJournal.*"' \
	  '$(ASAN_RUN) $(SAN_TREE)/tests/integration/cantonlite_integration_tests --gtest_brief=1 \
	     "--gtest_filter=$(ASAN_SKIP)"'

# The libFuzzer targets (tests/fuzz), in the sanitizer tree: the router over the live default
# network, the request parsers, the JWT verifier, the seed loader and interactive submission's
# execute (nothing commits that the party's key did not sign), the state file reader and the fork
# builder (any answer a Scan might give). Each runs FUZZ_SECONDS from its corpus
# ($(SAN_TREE)/corpus/<target>, kept between runs) and the seeds cantonlite_fuzz_corpus writes from
# the test suite's inputs, JOBS at a time (each is one thread); a crash stops it and leaves the
# input as $(SAN_TREE)/crash-*.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= router parsers jwt seed execute state fork
fuzz_one = mkdir -p $(SAN_TREE)/corpus/$(1) && echo "== fuzz $(1) ($(FUZZ_SECONDS) s; log: $(SAN_TREE)/$(1).log)" && \
  if $(SAN_TREE)/tests/fuzz/cantonlite_fuzz_$(1) -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
       -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(SAN_TREE)/ \
       $(SAN_TREE)/corpus/$(1) $(SAN_TREE)/corpus-seed/$(1) >$(SAN_TREE)/$(1).log 2>&1; then \
    grep -a -E "^stat::(number_of_executed_units|peak_rss_mb)" $(SAN_TREE)/$(1).log; \
  else tail -n 40 $(SAN_TREE)/$(1).log; exit 1; fi
fuzz: san-configure
	cmake --build $(SAN_TREE) -j$(JOBS) --target cantonlite_fuzz_corpus cantonlite_fuzz
	@$(SAN_TREE)/tests/fuzz/cantonlite_fuzz_corpus . $(SAN_TREE)/corpus-seed
	@JOBS=$(JOBS) scripts/parallel.sh $(foreach t,$(FUZZ_TARGETS),'$(call fuzz_one,$(t))')

# Builds docker/Dockerfile with podman and checks the container from the host.
docker-smoke:
	docker/smoke.sh

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
