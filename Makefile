# coalsim: library (build/libcoalsim.a, build/libcoalsim.so), command (build/coalsim), tests, GPU harness.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
# the device profiles (--profile h100): coalsim finds them at ../share/coalsim beside its bin/
DATADIR ?= $(PREFIX)/share/coalsim
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
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
MODEL_SRC = $(addprefix sim/model/,arch.c route.c gmem.c smem.c cmem.c ldgsts.c stats.c tile.c hier.c occupancy.c timing.c exectime.c sample.c \
            analysis.c preset.c)
FRONTEND_SRC = $(addprefix sim/frontend/,lanes.c grid.c mma.c gmma.c tmap.c tmabox.c tmamerge.c smport.c loopjump.c caswords.c) \
               $(addprefix sim/frontend/trace/,trace.c file.c import.c nvbit.c accelsim.c sassop.c binwrite.c textwrite.c) \
               $(addprefix sim/frontend/sketch/,sketch_lex.c sketch_expr.c sketch_parse.c sketch_code.c sketch_vm.c \
                 sketch_run.c sketch.c) \
               $(addprefix sim/frontend/kernel/,kernel.c open.c args.c kmem.c memory.c compile.c proc.c readfile.c disasm.c cuda_prelude.c demangle.c) \
               $(addprefix sim/frontend/ptx/,ptx_lex.c ptx_parse.c ptx_decode.c ptx_cfg.c ptx_exec.c ptx_loop.c ptx_ops_int.c \
                 ptx_ops_float.c ptx_ops_mem.c ptx_ops_warp.c ptx_ops_matrix.c ptx_ops_wmma.c ptx_ops_async.c ptx_ops_wgmma.c ptx_sched.c ptx_agg.c ptx_lower.c) \
               $(addprefix sim/frontend/sass/,sass_parse.c sass_decode.c sass_cfg.c sass_exec.c sass_ops_int.c \
                 sass_ops_float.c sass_ops_mem.c sass_ops_misc.c sass_ops_matrix.c sass_ops_async.c sass_launch.c sass_stub.c sass_mods.c \
                 sass_pipe.c sass_sched.c sass_loop.c)
REPORT_SRC = $(addprefix sim/report/,report.c report_text.c report_json.c report_csv.c metrics.c explain.c \
             picture.c html.c timechart.c report_string.c report_source.c)
LIB_SRC = $(MODEL_SRC) $(FRONTEND_SRC) $(REPORT_SRC)
# coalsim run's CUDA driver (build/driver/libcuda.so.1): the library's PIC
# objects and these, exporting the driver API's cu* names only.
DRIVER_SRC = $(addprefix sim/driver/,api.c attrs.c exports.c fatbin.c integrity.c procaddr.c state.c tensormap.c)
DRIVER_OBJ = $(DRIVER_SRC:%.c=$(BUILD)/pic/%.o)
CMD_SRC = $(addprefix sim/cli/,main.c input.c output.c parallel.c advise.c convert.c kernelcmd.c progress.c pipeline.c run.c profiles.c)
TEST_SRC = tests/check_main.c tests/check_arch.c tests/check_gmem.c tests/check_smem.c \
           tests/check_trace.c tests/check_stats.c tests/check_probes.c tests/check_seeds.c \
           tests/check_binary.c tests/check_sketch.c tests/check_hier.c tests/check_timing.c tests/check_report.c tests/check_analysis.c tests/check_grid.c tests/check_kernel.c tests/check_sass.c \
           tests/check_import.c tests/check_sketch_oracle.c tests/sketch_oracle.c tests/hier_oracle.c \
           tests/smem_oracle.c tests/trace_oracle.c tests/check_alloc.c tests/check_matrix.c tests/check_tensor.c tests/check_hopper.c \
           tests/check_sample.c
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
PIC_OBJ = $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
CMD_OBJ = $(CMD_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

# The shared library: libcoalsim.so -> libcoalsim.so.MAJOR (the soname) ->
# libcoalsim.so.VERSION, VERSION being COALSIM_VERSION of include/coalsim.h.
# Its objects are built apart with -fPIC (build/pic/), so the command keeps
# linking the static library's; it exports the coalsim_ names only.
VERSION := $(shell sed -n 's/^.define COALSIM_VERSION "\(.*\)"/\1/p' include/coalsim.h)
SONAME = libcoalsim.so.$(firstword $(subst ., ,$(VERSION)))

.PHONY: all test unit golden outputcheck pycheck installcheck hwcheck htmlcheck clangcheck runcheck fuzz bench examples deps clean \
        install uninstall probes gpu identity kernel-ptx
all: $(BUILD)/coalsim $(BUILD)/libcoalsim.a $(BUILD)/libcoalsim.so $(BUILD)/driver/libcuda.so.1

$(BUILD)/driver/libcuda.so.1: $(DRIVER_OBJ) $(PIC_OBJ) sim/driver/libcuda.map
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_LDFLAGS) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=sim/driver/libcuda.map -o $@ \
	    $(DRIVER_OBJ) $(PIC_OBJ) $(ZLIB_LIBS) -lm -ldl -pthread

$(BUILD)/libcoalsim.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/libcoalsim.so.$(VERSION): $(PIC_OBJ) sim/libcoalsim.map
	$(CC) $(FINAL_LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=sim/libcoalsim.map -o $@ $(PIC_OBJ) \
	    $(ZLIB_LIBS) -lm -pthread

$(BUILD)/libcoalsim.so: $(BUILD)/libcoalsim.so.$(VERSION)
	ln -sf libcoalsim.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

$(BUILD)/pic/sim/frontend/trace/file.o: sim/frontend/trace/file.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(ZLIB_CFLAGS) -fPIC -c -o $@ $<

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -fPIC -c -o $@ $<

$(BUILD)/coalsim: $(CMD_OBJ) $(BUILD)/libcoalsim.a
	$(CC) $(FINAL_LDFLAGS) -pthread -o $@ $^ $(ZLIB_LIBS) -lm

$(BUILD)/sim/frontend/trace/file.o: sim/frontend/trace/file.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(ZLIB_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -c -o $@ $<

# The interpreter's lane loops want the vectoriser (unless a sanitizer build
# asked for its own optimisation level)
$(BUILD)/sim/frontend/ptx/%.o: sim/frontend/ptx/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(if $(SANITIZER),,-O3) -c -o $@ $<

$(BUILD)/sim/frontend/sass/%.o: sim/frontend/sass/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(if $(SANITIZER),,-O3) -c -o $@ $<

$(BUILD)/pic/sim/frontend/ptx/%.o: sim/frontend/ptx/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(if $(SANITIZER),,-O3) -fPIC -c -o $@ $<

$(BUILD)/pic/sim/frontend/sass/%.o: sim/frontend/sass/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(if $(SANITIZER),,-O3) -fPIC -c -o $@ $<

# and so do the models' loops over a request's lanes
HOT_MODEL = gmem smem
$(HOT_MODEL:%=$(BUILD)/sim/model/%.o): $(BUILD)/sim/model/%.o: sim/model/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(if $(SANITIZER),,-O3) -c -o $@ $<

$(HOT_MODEL:%=$(BUILD)/pic/sim/model/%.o): $(BUILD)/pic/sim/model/%.o: sim/model/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(if $(SANITIZER),,-O3) -fPIC -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $(CHECK_CFLAGS) -Isim -c -o $@ $<

# check_alloc.c makes allocations fail through these wrappers
WRAP = -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=strdup
$(BUILD)/check_coalsim: $(TEST_OBJ) $(BUILD)/libcoalsim.a
	$(CC) $(FINAL_LDFLAGS) $(WRAP) -o $@ $^ $(CHECK_LIBS) $(ZLIB_LIBS) -lm

# Install what the tests need (Check, pkg-config) if it is missing.
deps:
	@sh tests/install-deps.sh

# Under the sanitizers the suites run in one process, so LeakSanitizer sees
# every test's allocations at exit.
unit: $(BUILD)/check_coalsim
	CK_FORK=$(if $(SANITIZER),no,yes) $(BUILD)/check_coalsim

golden: $(BUILD)/coalsim
	sh tests/golden.sh $(BUILD)/coalsim

# make install and uninstall into temporary prefixes, the example program
# built with pkg-config against the install, the man page against --help.
installcheck: all
	sh tests/install_check.sh "$(MAKE)" $(BUILD)

# The Python module (python/coalsim) on the shared library.
pycheck: $(BUILD)/libcoalsim.so $(BUILD)/coalsim $(BUILD)/driver/libcuda.so.1
	COALSIM_LIB=$(abspath $(BUILD))/libcoalsim.so python3 -m unittest discover python/tests

# Output that cannot be written (/dev/full, closed stdout, closed pipe) fails.
outputcheck: $(BUILD)/coalsim
	sh tests/output_check.sh $(BUILD)/coalsim

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

# coalsim run on CUDA programs built here by nvcc (tests/run/*.cu): their own
# result checks pass, every launch is reported with the counters the kernel
# front end gives; skipped without nvcc.
runcheck: $(BUILD)/coalsim $(BUILD)/driver/libcuda.so.1
	sh tests/run_check.sh $(BUILD)

# The PTX front end against the H100: the seed kernels' requests equal the
# traces the GPU harness captured (tests/kernel_identity.py).
identity: $(BUILD)/coalsim
	python3 tests/kernel_identity.py $(BUILD)/coalsim

# The PTX the kernel tests run, made from tests/kernels/*.cu with nvcc (the
# files are committed, so the tests need no CUDA compiler).
KERNEL_PTX = tests/kernels/seeds.ptx tests/kernels/semantics.ptx tests/kernels/tensor.ptx tests/kernels/cluster.ptx \
             tests/kernels/wmma.ptx tests/kernels/atomics.ptx tests/kernels/shared_fadd.ptx
kernel-ptx: $(KERNEL_PTX)
tests/kernels/%.ptx: tests/kernels/%.cu
	$(NVCC) -ptx -lineinfo -O3 -arch=sm_90 -o $@ $<
	sed -i 's|$(CURDIR)/||g' $@
# The WMMA fragment kernels without a line table: half the size, and their
# tests need no source lines.
tests/kernels/wmma.ptx: tests/kernels/wmma.cu
	$(NVCC) -ptx -O3 -arch=sm_90 -o $@ $<

# The HTML report in headless Chromium: no console errors, figures on screen.
htmlcheck: $(BUILD)/coalsim
	sh tests/html_check.sh $(BUILD)/coalsim

# Every test: unit suites, golden CLI tests, hardware replay, the HTML report
# in a browser, the same suites under ASan+UBSan, then a bounded fuzzing run.
test: deps
	$(MAKE) unit golden outputcheck pycheck installcheck hwcheck identity htmlcheck clangcheck runcheck
	$(MAKE) SANITIZER=address unit golden outputcheck
	$(MAKE) fuzz

# The code builds with clang as well as GCC, warnings as errors (their
# warnings differ; tests/install-deps.sh installs clang for the fuzzer).
clangcheck:
	@if command -v clang > /dev/null 2>&1; then $(MAKE) CC=clang BUILD=build-clang build-clang/coalsim && \
	    echo "clangcheck: build-clang/coalsim built"; else echo "clangcheck: no clang, skipped"; fi

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
# The standalone timing probes (scatter.cu, l2_loaded.cu, pred_off.cu, dram_pages.cu, shared_miss.cu, sm_fill.cu, sm_depth.cu,
# atomics.cu, matrix.cu, half_pipe.cu, tma_bw.cu, tma_pipe.cu, epi_store.cu, dram_lines.cu, l2_rates.cu,
# l2_sides.cu, l2_pairs.cu, l2_dirty.cu, launch_ncu.cu, atomic_rate.cu, atomic_agg.cu, atomic_lines.cu, atomic_wide.cu, atomic_mix.cu, atomic_tput.cu, shared_cas.cu, shared_cas_ev.cu, l1_store.cu, fence.cu) and the tensor kernels' and WMMA fragments' GPU checks are compiled too,
# so that they keep building.
PROBES_ALONE = $(BUILD)/probe_scatter $(BUILD)/probe_l2_loaded $(BUILD)/probe_pred_off $(BUILD)/probe_atomics \
               $(BUILD)/probe_dram_pages $(BUILD)/probe_shared_miss $(BUILD)/probe_matrix $(BUILD)/probe_sm_fill $(BUILD)/probe_sm_depth \
               $(BUILD)/probe_half_pipe $(BUILD)/probe_tma_bw $(BUILD)/probe_tma_pipe $(BUILD)/probe_epi_store $(BUILD)/probe_dram_lines \
               $(BUILD)/probe_l2_rates $(BUILD)/probe_l2_sides $(BUILD)/probe_l2_pairs $(BUILD)/probe_l2_dirty \
               $(BUILD)/probe_launch_ncu $(BUILD)/probe_atomic_rate $(BUILD)/probe_atomic_agg $(BUILD)/probe_atomic_lines \
               $(BUILD)/probe_atomic_wide $(BUILD)/probe_atomic_mix $(BUILD)/probe_atomic_tput $(BUILD)/probe_shared_cas \
               $(BUILD)/probe_shared_cas_ev $(BUILD)/probe_l1_store $(BUILD)/probe_fence \
               $(BUILD)/tensor_check \
               $(BUILD)/wmma_check
probes: $(BUILD)/probe $(PROBES_ALONE)
$(BUILD)/probe: gpu/probes/probe.cu
	@mkdir -p $(BUILD)
	$(NVCC) -O2 -arch=$(CUDA_ARCH) -std=c++17 -diag-suppress 550 -o $@ $<
$(BUILD)/tensor_check: gpu/tensor_check.cu tests/kernels/tensor.cu
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -arch=$(CUDA_ARCH) -std=c++17 -o $@ gpu/tensor_check.cu
$(BUILD)/wmma_check: gpu/wmma_check.cu tests/kernels/wmma.cu gpu/probes/timing.cuh
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -arch=$(CUDA_ARCH) -std=c++17 -o $@ gpu/wmma_check.cu
$(BUILD)/probe_tma_bw $(BUILD)/probe_tma_pipe: $(BUILD)/probe_tma_%: gpu/probes/tma_%.cu gpu/probes/tma_common.cuh gpu/probes/timing.cuh
	@mkdir -p $(BUILD)
	$(NVCC) -O2 -arch=sm_90a -std=c++17 -o $@ $<
$(BUILD)/probe_%: gpu/probes/%.cu gpu/probes/timing.cuh gpu/profile.cuh
	@mkdir -p $(BUILD)
	$(NVCC) -O3 -arch=$(CUDA_ARCH) -std=c++17 -o $@ $<

# The GPU harness (gpu/): the seed kernels, capture, timing, the model in-process.
gpu: $(BUILD)/harness
$(BUILD)/harness: gpu/harness.cu gpu/kernels.cuh gpu/capture.cuh gpu/cases.cuh gpu/profile.cuh gpu/pitch.cuh gpu/sm.cuh include/coalsim.h $(BUILD)/libcoalsim.a
	$(NVCC) -O3 -arch=$(CUDA_ARCH) -std=c++17 -Iinclude -o $@ gpu/harness.cu $(BUILD)/libcoalsim.a

# make install PREFIX=... DESTDIR=...: the command, both libraries, the
# header, the man page and coalsim.pc (written for PREFIX); make uninstall
# removes exactly those files (and leaves the directories).
INSTALLED = $(BINDIR)/coalsim $(LIBDIR)/libcoalsim.a $(LIBDIR)/libcoalsim.so.$(VERSION) $(LIBDIR)/$(SONAME) \
            $(LIBDIR)/libcoalsim.so $(INCLUDEDIR)/coalsim.h $(MANDIR)/man1/coalsim.1 $(PKGCONFIGDIR)/coalsim.pc \
            $(LIBDIR)/coalsim/libcuda.so.1 $(DATADIR)/profiles/h100.txt $(DATADIR)/profiles/h200.txt
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(BUILD)/coalsim $(DESTDIR)$(BINDIR)/coalsim
	install -d $(DESTDIR)$(LIBDIR)/coalsim
	install -m 755 $(BUILD)/driver/libcuda.so.1 $(DESTDIR)$(LIBDIR)/coalsim/libcuda.so.1
	install -m 644 $(BUILD)/libcoalsim.a $(DESTDIR)$(LIBDIR)/libcoalsim.a
	install -m 755 $(BUILD)/libcoalsim.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libcoalsim.so.$(VERSION)
	ln -sf libcoalsim.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libcoalsim.so
	install -m 644 include/coalsim.h $(DESTDIR)$(INCLUDEDIR)/coalsim.h
	install -m 644 docs/coalsim.1 $(DESTDIR)$(MANDIR)/man1/coalsim.1
	install -d $(DESTDIR)$(DATADIR)/profiles
	install -m 644 gpu/profiles/h100.txt gpu/profiles/h200.txt $(DESTDIR)$(DATADIR)/profiles/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' 'Name: coalsim' \
	    'Description: GPU memory coalescing and shared-memory bank conflicts of warp requests' \
	    'Version: $(VERSION)' 'Libs: -L$${libdir} -lcoalsim' 'Libs.private: $(ZLIB_LIBS) -lm -pthread' \
	    'Cflags: -I$${includedir}' >$(DESTDIR)$(PKGCONFIGDIR)/coalsim.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/coalsim.pc

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf build build-asan build-fuzz build-clang

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(DRIVER_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
