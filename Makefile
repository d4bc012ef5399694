# textedge: the two set-up commands are `make demo` and `make test`; both install what they
# need first (scripts/setup.sh is idempotent).
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
MAKEFLAGS += --no-print-directory

.PHONY: all setup build engine test test-sanitize test-tsan demo bench bench-stream fuzz fuzz-regress clean bench-serve

all: build

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# The real engine (llama.cpp's llama-server, built once into a cache outside the repo) and its
# random-weight Qwen3 model: scripts/engine.sh writes their paths to $(BUILD_DIR)/engine.env,
# which the tests read.
ENGINE_ENV = $(BUILD_DIR)/engine.env
engine: setup
	@mkdir -p $(BUILD_DIR)
	@bash scripts/engine.sh > $(ENGINE_ENV).tmp && mv $(ENGINE_ENV).tmp $(ENGINE_ENV)
WITH_ENGINE = set -a && . $(abspath $(ENGINE_ENV)) && set +a &&

# Goldens come from the references (Hugging Face tokenizers, Jinja2, jsonschema) at test time,
# into $(BUILD_DIR)/goldens where the tests read them, regenerated only when the corpus, the
# models, the scripts or the references change.
test: build engine
	@BUILD_DIR=$(BUILD_DIR) bash scripts/goldens.sh
	@cd $(BUILD_DIR) && $(WITH_ENGINE) ctest --output-on-failure -j $(JOBS)

# The unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer (any report fails the
# test), reading the goldens `make test` made. The build goes to $(BUILD_DIR)-asan.
# Sanitized builds use -O1 -g1 (line tables for the reports; -O1 is what the sanitizers'
# documentation advises): a fresh clone's `make test-sanitize` on this 2-core machine took 1393 s
# at -O2 -g (build about 1050 s, tests 340 s) and 881 s at -O1 -g1 (build 594 s, tests 272 s), on
# commit b2efec9, 2026-12-02.
SANITIZE_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DTEXTEDGE_BUILD_BENCHMARKS=OFF -DTEXTEDGE_BUILD_PYTHON=OFF -DTEXTEDGE_GOLDENS_DIR=$(abspath $(BUILD_DIR))/goldens
SANITIZE_DIR ?= $(BUILD_DIR)-asan
# Sampling llama-server under grammars takes minutes and runs the engine's code, not ours: the
# converter's own tests run sanitized, these two only in `make test`.
SANITIZE_SKIP = RegexToGbnfEngine(Tools)?\.(SchemaSamples|ToolCallSamples|ParallelToolCallSamples)
test-sanitize: build engine
	@BUILD_DIR=$(BUILD_DIR) bash scripts/goldens.sh
	@cmake -S . -B $(SANITIZE_DIR) -DTEXTEDGE_SANITIZE=address,undefined $(SANITIZE_FLAGS) >/dev/null
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@cd $(SANITIZE_DIR) && $(WITH_ENGINE) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS) -E '$(SANITIZE_SKIP)'

# The tests that run threads (thread pool and encode_batch, StreamBatch, concurrent renders and
# regexes, the reference tests' parallel encodes of one model) under ThreadSanitizer.
TSAN_DIR ?= $(BUILD_DIR)-tsan
TSAN_TARGETS = thread_pool_test tokenizer_test stream_test chat_template_test jinja_test regex_test reference_test bpe_json_test
TSAN_TESTS = Batch|Thread|Concurrent|Reference\..*qwen3|BpeJson\.(Split|Corrupted|MergesHandedOver)
test-tsan: build
	@BUILD_DIR=$(BUILD_DIR) bash scripts/goldens.sh
	@cmake -S . -B $(TSAN_DIR) -DTEXTEDGE_SANITIZE=thread $(SANITIZE_FLAGS) >/dev/null
	@cmake --build $(TSAN_DIR) -j $(JOBS) --target $(TSAN_TARGETS)
	@cd $(TSAN_DIR) && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)' --no-tests=error

demo: build
	@bash scripts/demo.sh

bench: build
	@bash scripts/bench_compare.sh
	@bash scripts/bench_compare.sh build/corpus/bench2.txt

bench-stream: build
	@bash scripts/bench_stream.sh

# The libFuzzer targets of tests/fuzz/ (clang-14, AddressSanitizer + UBSan, in build-fuzz): each
# runs FUZZ_SECONDS (or FUZZ_RUNS executions, when set) from a scratch copy of its corpus; fuzz-regress runs each once over its corpus
# and the inputs of past crashes. Any crash, sanitizer report or timeout fails.
FUZZ_SECONDS ?= 60
fuzz: setup
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) bash scripts/fuzz.sh run

fuzz-regress: setup
	@bash scripts/fuzz.sh regress

clean:
	rm -rf $(BUILD_DIR)

# textedge serve's speed (scripts/bench_serve.sh, docs/performance.md "Serving"): capacity over the
# scripted engine, side by side with llama-server's own frontend, the prompt path; writes
# $(BUILD_DIR)/bench/serve.json, then its figures into docs/images/ (scripts/plot_serve.py).
bench-serve: build engine
	@$(WITH_ENGINE) BUILD_DIR=$(BUILD_DIR) bash scripts/bench_serve.sh
	@/usr/bin/python3 scripts/plot_serve.py $(BUILD_DIR)/bench/serve.json docs/images
