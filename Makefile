# coalsim: library (build/libcoalsim.a), command (build/coalsim), tests, GPU harness.
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
BUILD ?= build

STD = -std=c11 -D_POSIX_C_SOURCE=200809L -pthread
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes
WERROR ?= -Werror
OPT ?= -O2 -g
ifeq ($(SANITIZER),address)
  OPT = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  BUILD = build-asan
endif
# gzip input needs zlib's header (Debian: zlib1g-dev); without it coalsim
# still builds and says so when given a gzip file.
ZLIB ?= $(shell printf '\043include <zlib.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo yes)
ifeq ($(ZLIB),yes)
  ZLIB_CFLAGS = -DCOALSIM_ZLIB
  ZLIB_LIBS = -lz
endif
FINAL_CFLAGS = $(STD) $(WARN) $(WERROR) $(OPT) -Iinclude -Isim -MMD -MP $(CFLAGS)
FINAL_LDFLAGS = $(OPT) $(LDFLAGS)

# The library: the models, the front ends (one file an input kind), the
# reports (one file a format).  The command: sim/cli/, the only code that
# prints or exits.  docs/architecture.md draws how data flows between them.
MODEL_SRC = $(addprefix sim/model/,arch.c route.c gmem.c smem.c cmem.c stats.c tile.c hier.c timing.c analysis.c)
FRONTEND_SRC = $(addprefix sim/frontend/,trace.c binwrite.c textwrite.c sketch_lex.c sketch_expr.c sketch_parse.c \
               sketch_code.c sketch_vm.c sketch_run.c sketch.c grid.c)
REPORT_SRC = $(addprefix sim/report/,report.c report_text.c report_json.c report_csv.c metrics.c explain.c \
             picture.c html.c)
LIB_SRC = $(MODEL_SRC) $(FRONTEND_SRC) $(REPORT_SRC)
CMD_SRC = $(addprefix sim/cli/,main.c input.c parallel.c advise.c convert.c progress.c pipeline.c)
TEST_SRC = tests/check_main.c tests/check_arch.c tests/check_gmem.c tests/check_smem.c \
           tests/check_trace.c tests/check_stats.c tests/check_probes.c tests/check_seeds.c \
           tests/check_binary.c tests/check_sketch.c tests/check_hier.c tests/check_timing.c tests/check_report.c tests/check_analysis.c tests/check_grid.c \
           tests/check_sketch_oracle.c tests/sketch_oracle.c tests/hier_oracle.c \
           tests/smem_oracle.c tests/trace_oracle.c tests/check_alloc.c
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ = $(CMD_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

.PHONY: all test unit golden hwcheck htmlcheck fuzz bench examples deps clean install probes gpu
all: $(BUILD)/coalsim $(BUILD)/libcoalsim.a

$(BUILD)/libcoalsim.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/coalsim: $(CMD_OBJ) $(BUILD)/libcoalsim.a
	$(CC) $(FINAL_LDFLAGS) -pthread -o $@ $^ $(ZLIB_LIBS) -lm

$(BUILD)/sim/cli/input.o: sim/cli/input.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(ZLIB_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(CHECK_CFLAGS) -Isim -c -o $@ $<

# check_alloc.c makes allocations fail through these wrappers
WRAP = -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=strdup
$(BUILD)/check_coalsim: $(TEST_OBJ) $(BUILD)/libcoalsim.a
	$(CC) $(FINAL_LDFLAGS) $(WRAP) -o $@ $^ $(CHECK_LIBS) -lm

# Install what the tests need (Check, pkg-config) if it is missing.
deps:
	@sh tests/install-deps.sh

# Under the sanitizers the suites run in one process, so LeakSanitizer sees
# every test's allocations at exit.
unit: $(BUILD)/check_coalsim
	CK_FORK=$(if $(SANITIZER),no,yes) $(BUILD)/check_coalsim

golden: $(BUILD)/coalsim
	sh tests/golden.sh $(BUILD)/coalsim

# The model against the H100's counters for the GPU-captured seed kernels.
hwcheck: $(BUILD)/coalsim
	python3 gpu/join_counters.py gpu/results/h100 $(BUILD)/coalsim > $(BUILD)/counters.txt
	@tail -1 $(BUILD)/counters.txt

# libFuzzer on the reader, models and writers (clang; tests/fuzz/).  The seed
# corpus is copied so a run never edits the committed one; a finding fails.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
build-fuzz/fuzz_trace: tests/fuzz/fuzz_trace.c $(LIB_SRC) include/coalsim.h
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(STD) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude -Isim \
	    -o $@ tests/fuzz/fuzz_trace.c $(LIB_SRC) -lm
build-fuzz/fuzz_sketch: tests/fuzz/fuzz_sketch.c tests/sketch_oracle.c tests/sketch_compare.h $(LIB_SRC) \
                        $(wildcard sim/*.h sim/*/*.h) include/coalsim.h
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(STD) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude -Isim -Itests \
	    -o $@ tests/fuzz/fuzz_sketch.c tests/sketch_oracle.c $(LIB_SRC) -lm -lpthread
# FUZZ_SECONDS on traces, then a third of it on sketches
fuzz: build-fuzz/fuzz_trace build-fuzz/fuzz_sketch
	@rm -rf build-fuzz/corpus build-fuzz/sketch-corpus && mkdir -p build-fuzz/corpus build-fuzz/sketch-corpus
	@cp tests/fuzz/corpus/* build-fuzz/corpus/ && cp tests/fuzz/sketch-corpus/* build-fuzz/sketch-corpus/
	cd build-fuzz && ./fuzz_trace -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=65536 -print_final_stats=1 corpus >fuzz.log 2>&1; s=$$?; tail -15 fuzz.log; exit $$s
	cd build-fuzz && ./fuzz_sketch -max_total_time=$$(( $(FUZZ_SECONDS) / 3 + 1 )) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=4096 -print_final_stats=1 sketch-corpus >fuzz_sketch.log 2>&1; s=$$?; tail -6 fuzz_sketch.log; exit $$s

# The HTML report in headless Chromium: no console errors, figures on screen.
htmlcheck: $(BUILD)/coalsim
	sh tests/html_check.sh $(BUILD)/coalsim

# Every test: unit suites, golden CLI tests, hardware replay, the HTML report
# in a browser, the same suites under ASan+UBSan, then a bounded fuzzing run.
test: deps
	$(MAKE) unit golden hwcheck htmlcheck
	$(MAKE) SANITIZER=address unit golden
	$(MAKE) fuzz

# Speed: a generated mixed trace, coalsim timed next to wc -l (bench/bench.sh).
bench: $(BUILD)/coalsim
	sh bench/bench.sh $(BENCH_RECORDS) $(BENCH_RUNS)

# Run coalsim on every bundled example trace (traces/examples.list).
examples: $(BUILD)/coalsim
	@sh tests/golden.sh --show $(BUILD)/coalsim

# The H100 probe suite (gpu/probes/): compiles here; runs need a GPU and ncu
# (gpu/probes/run_probes.sh).
NVCC ?= nvcc
CUDA_ARCH ?= sm_90
probes: $(BUILD)/probe
$(BUILD)/probe: gpu/probes/probe.cu
	@mkdir -p $(BUILD)
	$(NVCC) -O2 -arch=$(CUDA_ARCH) -std=c++17 -diag-suppress 550 -o $@ $<

# The GPU harness (gpu/): the seed kernels, capture, timing, the model in-process.
gpu: $(BUILD)/harness
$(BUILD)/harness: gpu/harness.cu gpu/kernels.cuh gpu/capture.cuh gpu/cases.cuh gpu/profile.cuh gpu/pitch.cuh include/coalsim.h $(BUILD)/libcoalsim.a
	$(NVCC) -O3 -arch=$(CUDA_ARCH) -std=c++17 -Iinclude -o $@ gpu/harness.cu $(BUILD)/libcoalsim.a

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BUILD)/coalsim $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/libcoalsim.a $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/coalsim.h $(DESTDIR)$(PREFIX)/include/

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
