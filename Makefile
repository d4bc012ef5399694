# textedge: the two set-up commands are `make demo` and `make test`; both install what they
# need first (scripts/setup.sh is idempotent).
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
MAKEFLAGS += --no-print-directory

.PHONY: all setup build test demo bench bench-stream clean

all: build

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Goldens come from the reference (Hugging Face tokenizers) at test time, regenerated only
# when the corpus, the models or the scripts change.
test: build
	@bash scripts/goldens.sh
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

demo: build
	@bash scripts/demo.sh

bench: build
	@bash scripts/bench_compare.sh

bench-stream: build
	@bash scripts/bench_stream.sh

clean:
	rm -rf $(BUILD_DIR)
