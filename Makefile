# hipmembench - build for NVIDIA (nvcc, CUDA 12/13) or AMD (hipcc, ROCm); install.
#
#   make                   the vendor of the GPU here; with none, nvcc where present
#                          (it builds every default target), else hipcc
#   make PLATFORM=nvidia   CUDA_ARCH="80 90" (default: the GPUs here, else those of
#                          80 90 100 that nvcc supports; PTX of the newest as well)
#   make PLATFORM=amd      OFFLOAD_ARCH="gfx90a gfx942" (default: the GPUs here, else
#                          those of gfx908 gfx90a gfx942 gfx950 that hipcc supports)
#   make test              unit, command-line, script and Slurm tests, and every module
#                          run on the emulated runtime (make emulated) (python3, pytest,
#                          pytest-xdist and jsonschema installed first where missing:
#                          scripts/setup.sh --tests); GPU tests skip themselves where no
#                          GPU is usable; EMULATED_TESTS=no leaves out the emulated ones
#                          (their code is the same whatever GPU compiler builds the
#                          rest); in a process a core (pytest-xdist; without it, one),
#                          TEST_JOBS=N: in N
#   make mutate            mutation testing: each seeded bug of tests/mutants.txt, a
#                          core's worker at a time, each in a scratch copy of the tree,
#                          must fail its tests (tests/mutate.py; minutes on 2 cores)
#   make mutagen           mutants made by rule over src/, bench/ and scripts/
#                          (tests/mutagen.py): MUTAGEN_SAMPLE (10) of the order seeded
#                          with MUTAGEN_SEED (36), each killed by the no-GPU tests or
#                          listed in tests/mutagen-survivors.txt saying why not
#   make emulated          build/emulated/hipmembench: HIP emulated on the CPU, no GPU
#                          and no GPU compiler needed; its figures measure the host
#                          (platform "emulated"); for tests of every module's code
#   make WERROR=1          warnings as errors (CI and developers; a user's build warns)
#   make layers            includes go one way through the source's layers
#                          (docs/development.md, Layout), no file circles: one line
#                          a problem
#   make install PREFIX=/usr/local DESTDIR=     make uninstall     make dist
#   make portable          copy libcjson next to the binary (build/lib)
#   make clean             remove the build folder (and what it remembers)
#
# Toolchains: CUDA_HOME (else the nvcc on PATH, else /usr/local/cuda); HIP_PATH or
# ROCM_PATH (else hipconfig --path, else /opt/rocm). CPPFLAGS, CFLAGS, LDFLAGS and
# LDLIBS add to the project's flags; NVCCFLAGS and HIPCCFLAGS to the device code's.
# cJSON through pkg-config (libcjson), else the compiler's default paths; libnuma
# through the compiler's paths. A missing one stops the build with one line naming
# its packages.

PLATFORM ?= auto
BUILD    ?= build
VERSION  := $(shell sed -n 's/.*define HMB_VERSION "\(.*\)".*/\1/p' src/util/version.h)

# Goals that need no compiler: these work on any machine.
NO_BUILD_GOALS := clean dist uninstall layers emulated
ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
  include mk/toolchain.mk
endif

OBJDIR   := $(BUILD)/obj-$(PLATFORM)
GEN      := $(BUILD)/gen
BIN      := $(BUILD)/hipmembench
TEST_BIN := $(BUILD)/unit_tests
comma    := ,

CJSON_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS   := $(or $(shell pkg-config --libs libcjson 2>/dev/null),-lcjson)
CJSON_LIBDIR := $(patsubst -L%,%,$(filter -L%,$(CJSON_LIBS)))
MISSING_CJSON := cJSON not found (cjson/cJSON.h and -lcjson): install libcjson-dev \
  (Debian/Ubuntu), cjson-devel (Fedora; RHEL: from EPEL) or with Spack \
  (spack install cjson && spack load cjson), or give its place with PKG_CONFIG_PATH \
  or CPPFLAGS=-I... LDFLAGS=-L...
MISSING_NUMA := libnuma not found (numa.h and -lnuma): install libnuma-dev (Debian/Ubuntu), \
  numactl-devel (Fedora/RHEL) or with Spack (spack install numactl && spack load numactl), \
  or give its place with CPPFLAGS=-I... LDFLAGS=-L...

# The project's flags; the user's CPPFLAGS, CFLAGS, LDFLAGS and LDLIBS come after.
# Warnings are errors where the project builds itself (WERROR=1: CI, `make dev`), not
# in a user's build, where a newer compiler's new warning would stop it.
WERROR       ?= 0
HMB_CPPFLAGS := -Isrc -I. -I$(GEN) -D_POSIX_C_SOURCE=200809L $(PLATFORM_CPPFLAGS) $(CJSON_CFLAGS)
HMB_CFLAGS   := -std=c11 -O2 -g -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -MMD -MP
HMB_LDFLAGS  := -Wl,-rpath,'$$ORIGIN/lib' $(addprefix -Wl$(comma)-rpath$(comma),$(CJSON_LIBDIR))
HMB_LDLIBS   := $(CJSON_LIBS) -lnuma -lm -ldl -lpthread

PLATFORM_C := src/platform/hip_on_cuda.c src/platform/hip_emulated.c kernels/emulated.c
SRC_C   := $(filter-out $(PLATFORM_C),$(wildcard src/*/*.c) $(wildcard bench/*/*.c) \
             $(wildcard kernels/*.c))
KERNELS := $(wildcard kernels/*.hip)
ifeq ($(PLATFORM),nvidia)
  SRC_C += src/platform/hip_on_cuda.c
endif
# No GPU: the HIP calls and the kernels emulated in C (src/platform/hip_emulated.h).
ifeq ($(PLATFORM),emulated)
  SRC_C += src/platform/hip_emulated.c kernels/emulated.c
  KERNELS :=
endif
# The __managed__ array: linked in on NVIDIA, its own shared object on AMD
# (kernels/managed_static.hip says why).
ifeq ($(PLATFORM),amd)
  KERNELS := $(filter-out kernels/managed_static.hip,$(KERNELS))
  MANAGED_STATIC := $(BUILD)/lib/hipmembench-managed-static.so
endif
OBJ_C   := $(SRC_C:%.c=$(OBJDIR)/%.o)
OBJ_K   := $(KERNELS:%.hip=$(OBJDIR)/%.o)
LIB_OBJ := $(filter-out $(OBJDIR)/src/cli/main.o,$(OBJ_C)) $(OBJ_K)
TEST_C  := $(wildcard tests/unit/*.c)

LINK = $(LINKER) $(LDFLAGS) $(HMB_LDFLAGS) -o $@ $^ $(HMB_LDLIBS) $(PLATFORM_LIBS) $(LDLIBS)

.PHONY: all test test-deps mutate mutagen clean portable man install uninstall dist layers emulated
all: $(BIN) $(MANAGED_STATIC)

ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
  # Remember the flags: a change of flags, platform or architectures rebuilds.
  FLAGS_STAMP := $(BUILD)/build-flags
  BUILD_ID := $(PLATFORM) $(CC) $(HMB_CPPFLAGS) $(CPPFLAGS) $(HMB_CFLAGS) $(CFLAGS) | $(DEVCC) $(DEVFLAGS) \
              | $(LINKER) $(LDFLAGS) $(HMB_LDFLAGS) $(HMB_LDLIBS) $(PLATFORM_LIBS) $(LDLIBS)
  $(shell mkdir -p $(OBJDIR) $(GEN))
  ifneq ($(file <$(FLAGS_STAMP)),$(BUILD_ID))
    $(file >$(FLAGS_STAMP),$(BUILD_ID))
  endif
  # The git revision, in a header of its own so that a commit rebuilds two files.
  # Where git cannot say (a tarball has REVISION; `sudo make install` may not be
  # allowed to read the checkout), the header already there is kept.
  GIT_REV := $(shell cat REVISION 2>/dev/null || git describe --always --dirty 2>/dev/null)
  REV_LINE := \#define HMB_GIT_REVISION "$(or $(GIT_REV),unknown)"
  ifneq ($(if $(GIT_REV),$(REV_LINE),$(if $(wildcard $(GEN)/revision.h),,$(REV_LINE))),)
    ifneq ($(file <$(GEN)/revision.h),$(REV_LINE))
      $(file >$(GEN)/revision.h,$(REV_LINE))
    endif
  endif
  # The compilers, then cJSON and libnuma, each checked with one line naming its
  # packages if missing (the libraries once per build folder).
  ifeq ($(shell command -v $(firstword $(CC)) >/dev/null && command -v $(firstword $(CXX)) >/dev/null && echo ok),)
    $(error C or C++ compiler not found (CC=$(CC), CXX=$(CXX)): install gcc g++ (Debian/Ubuntu), \
      gcc gcc-c++ (Fedora/RHEL) or with Spack (spack install gcc && spack load gcc), or set CC and CXX)
  endif
  ifeq ($(wildcard $(OBJDIR)/cjson.ok),)
    CJSON_PROBE := printf '\#include <cjson/cJSON.h>\nint main(void) { return cJSON_Version() == 0; }\n' \
      | $(CC) $(HMB_CPPFLAGS) $(CPPFLAGS) -x c - -o $(OBJDIR)/cjson-probe $(LDFLAGS) $(CJSON_LIBS)
    ifeq ($(shell $(CJSON_PROBE) >/dev/null 2>&1 && touch $(OBJDIR)/cjson.ok; rm -f $(OBJDIR)/cjson-probe; \
                  test -f $(OBJDIR)/cjson.ok && echo ok),)
      $(error $(MISSING_CJSON))
    endif
  endif
  ifeq ($(wildcard $(OBJDIR)/numa.ok),)
    NUMA_PROBE := printf '\#include <numa.h>\nint main(void) { return numa_available() < -1; }\n' \
      | $(CC) $(CPPFLAGS) -x c - -o $(OBJDIR)/numa-probe $(LDFLAGS) -lnuma
    ifeq ($(shell $(NUMA_PROBE) >/dev/null 2>&1 && touch $(OBJDIR)/numa.ok; rm -f $(OBJDIR)/numa-probe; \
                  test -f $(OBJDIR)/numa.ok && echo ok),)
      $(error $(MISSING_NUMA))
    endif
  endif
endif

$(BIN): $(OBJ_C) $(OBJ_K)
	$(LINK)

$(OBJDIR)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(HMB_CPPFLAGS) $(CPPFLAGS) $(HMB_CFLAGS) $(CFLAGS) -c $< -o $@

# The architectures this build holds code for, for the start-up check's message.
$(OBJDIR)/src/system/codecheck.o: HMB_CPPFLAGS += -DHMB_BUILD_ARCHS='"$(ARCHS)"'

$(OBJDIR)/kernels/%.o: kernels/%.hip kernels/kernels.h kernels/pattern.h kernels/hip_device.h \
		src/system/codecheck.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(COMPILE_KERNEL)

$(MANAGED_STATIC): kernels/managed_static.hip kernels/kernels.h kernels/hip_device.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(DEVCC) $(DEVFLAGS) -fPIC -shared $< -o $@

$(TEST_BIN): $(TEST_C:%.c=$(OBJDIR)/%.o) $(LIB_OBJ)
	$(LINK)

# The tests' Python: /usr/bin/python3 where present (not a shim on PATH), else
# python3 (make test PYTHON=... for another; not taken from the environment); its
# pytest and jsonschema are checked, and installed where possible, first.
PYTHON = $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

test-deps:
	@PYTHON='$(PYTHON)' scripts/setup.sh --tests

EMULATED_TESTS ?= yes
# TEST_IGNORE: test files left out (make sanitize's NOT_NATIVE_TESTS).
# TEST_JOBS=N: the tests in N processes (pytest-xdist; by default a process a
# core where it is installed, else 1, decided as the tests start: after
# test-deps, which may have installed it); the GPU tests all in one of them
# (tests/conftest.py), so that no two share a GPU.
TEST_JOBS ?=
test: test-deps $(BIN) $(MANAGED_STATIC) $(TEST_BIN) $(if $(filter no,$(EMULATED_TESTS)),,emulated)
	@[ -z '$(TEST_JOBS)' ] || [ '$(TEST_JOBS)' = 1 ] || $(PYTHON) -c 'import xdist' 2>/dev/null || \
		{ echo "make test: TEST_JOBS=$(TEST_JOBS) needs pytest-xdist for $(PYTHON)" \
		  "(Debian: apt-get install python3-pytest-xdist)" >&2; exit 2; }
	HMB_BIN=$(BIN) HMB_UNIT=$(TEST_BIN) HMB_EMULATED_BIN=$(BUILD)/emulated/hipmembench \
		PYTHONDONTWRITEBYTECODE=1 \
		$(PYTHON) -m pytest tests --basetemp=$(BUILD)/pytest \
		$(if $(TEST_JOBS),$(if $(filter 1,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadgroup),$$($(PYTHON) -c 'import xdist' 2>/dev/null && printf -- '-n %s --dist loadgroup' "$$(nproc)")) \
		$(foreach f,$(TEST_IGNORE),--ignore=$(f)) \
		$(if $(filter no,$(EMULATED_TESTS)),--ignore-glob='tests/test_*emulated*.py')

# The build here is copied into the scratch copies and built on there, with the
# same settings: only what a mutant touches is compiled again.
mutate: test-deps $(BIN) $(MANAGED_STATIC) $(TEST_BIN) $(if $(filter no,$(EMULATED_TESTS)),,emulated)
	BUILD=$(BUILD) PLATFORM=$(PLATFORM) $(if $(CUDA_ARCH),CUDA_ARCH='$(CUDA_ARCH)') \
		$(if $(OFFLOAD_ARCH),OFFLOAD_ARCH='$(OFFLOAD_ARCH)') PYTHON=$(PYTHON) \
		$(PYTHON) tests/mutate.py

# A fresh sample each time (the results of an earlier one are not reused); the
# whole suite runs only for a survivor not listed as such.
MUTAGEN_SAMPLE ?= 10
MUTAGEN_SEED   ?= 36
mutagen: test-deps $(BIN) $(MANAGED_STATIC) $(TEST_BIN)
	rm -f $(BUILD)/mutagen/make-results.jsonl
	BUILD=$(BUILD) PLATFORM=$(PLATFORM) $(if $(CUDA_ARCH),CUDA_ARCH='$(CUDA_ARCH)') \
		$(if $(OFFLOAD_ARCH),OFFLOAD_ARCH='$(OFFLOAD_ARCH)') PYTHON=$(PYTHON) \
		$(PYTHON) tests/mutagen.py --sample $(MUTAGEN_SAMPLE) --seed $(MUTAGEN_SEED) \
		--known-only --results $(BUILD)/mutagen/make-results.jsonl

# The binary on the emulated runtime (no GPU, no GPU compiler), in its own folder:
# the tests run every module on it (tests/test_emulated.py).
emulated:
	$(MAKE) PLATFORM=emulated BUILD=$(BUILD)/emulated WERROR=$(WERROR) $(BUILD)/emulated/hipmembench

# Includes go one way through the layers (src/*/README.md, kernels/, bench/):
# one line a problem (tests/check_layers.py; make test runs it too).
layers:
	$(PYTHON) tests/check_layers.py .

# Copy the shared libraries that a bare GPU node may lack next to the binary
# (build/lib, found through its rpath), so that build/ can be copied there.
portable: $(BIN) $(MANAGED_STATIC)
	@mkdir -p $(BUILD)/lib
	cp -L $(firstword $(wildcard $(addsuffix /libcjson.so.1,$(CJSON_LIBDIR))) \
		$(shell $(CC) -print-file-name=libcjson.so.1)) $(BUILD)/lib/
	cp -L $(shell $(CC) -print-file-name=libnuma.so.1) $(BUILD)/lib/

clean:
	rm -rf $(BUILD)

include mk/install.mk

-include $(OBJ_C:.o=.d) $(TEST_C:%.c=$(OBJDIR)/%.d)

# ---- sanitizers and fuzzing ---------------------------------------------------
# make sanitize   the host code built with AddressSanitizer and UBSan (in
#                 $(BUILD)/sanitize), then the tests of `make test` that run it
#                 (all but NOT_NATIVE_TESTS): any report fails the test that ran
#                 into it.
# make fuzz       libFuzzer targets (clang from the distribution) for the size
#                 parser, the command line, and reading documents with compare,
#                 each for FUZZ_SECONDS (60) from its seeds in fuzz/corpus/; a
#                 crash, leak or sanitizer report fails, its input is kept as
#                 $(BUILD)/fuzz/crash-*.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SANITIZE),1)
  CFLAGS += $(SAN_FLAGS)
  LDLIBS += $(SAN_FLAGS)
endif

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_CFLAGS  := -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -I. -Ifuzz -Wall -Wextra -Werror \
                $(filter -D% -I%,$(CPPFLAGS) $(CFLAGS)) \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BASE    := src/util/sizes.c src/util/text.c src/util/util.c src/util/nearest.c
FUZZ_OPTIONS := $(FUZZ_BASE) src/cli/cli.c src/cli/commands.c src/cli/complete.c src/cli/help.c \
                src/cli/documents.c \
                src/engine/options.c src/stats/significance.c \
                src/stats/resolution.c
FUZZ_LOAD    := $(FUZZ_BASE) src/doc/json_read.c src/doc/json_write.c src/doc/json_import.c \
                src/doc/atomic_file.c src/output/summary_read.c src/output/summary_json.c \
                src/compare/compare.c src/compare/figures.c src/engine/record.c src/engine/judge.c \
                src/engine/options.c src/engine/headline.c src/doc/about.c src/doc/renames.c \
                src/doc/units.c \
                src/stats/stats.c \
                src/system/host.c src/telemetry/telemetry.c src/telemetry/telemetry_nvml.c \
                src/telemetry/telemetry_rocm_smi.c src/telemetry/amd_sample.c \
                src/telemetry/amd_sysfs.c src/telemetry/amd_throttle.c \
                src/stats/significance.c src/system/pcie_link.c \
                src/system/memmodel.c src/engine/report.c src/stats/stability.c \
                src/system/kfd.c src/output/summary.c src/output/summary_cmd.c \
                src/output/summary_text.c src/output/report_html.c \
                src/output/svg.c \
                src/doc/identity.c \
                src/compare/noise.c src/stats/resolution.c src/util/numfmt.c \
                src/output/table.c src/output/table_groups.c \
                src/system/topology_text.c src/system/topology.c fuzz/hip_stubs.c
FUZZ_BINS    := $(FUZZ_DIR)/fuzz_sizes $(FUZZ_DIR)/fuzz_options $(FUZZ_DIR)/fuzz_load

.PHONY: sanitize fuzz fuzz-build
# The tests that run no code built here (the Python scripts' own, the mutation
# tools', the documentation's): nothing in them for a sanitizer to see, so
# make sanitize leaves them to make test.
NOT_NATIVE_TESTS := tests/test_files.py tests/test_fleet.py tests/test_layers.py \
	tests/test_mutagen.py tests/test_mutate.py tests/test_readme.py tests/test_sanitizer_script.py
sanitize:
	ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(MAKE) SANITIZE=1 PLATFORM=$(PLATFORM) BUILD=$(BUILD)/sanitize \
		TEST_IGNORE='$(NOT_NATIVE_TESTS)' test

$(FUZZ_DIR)/fuzz_sizes: fuzz/fuzz_sizes.c $(FUZZ_BASE)
$(FUZZ_DIR)/fuzz_options: fuzz/fuzz_options.c $(FUZZ_OPTIONS)
$(FUZZ_DIR)/fuzz_load: fuzz/fuzz_load.c $(FUZZ_LOAD)
$(FUZZ_BINS): fuzz/fuzz_check.h $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ -lcjson -lm -ldl -lpthread

fuzz-build: $(FUZZ_BINS)

# each target a job of its own (make -j2 fuzz: two at once), its lines printed together
fuzz: $(patsubst $(FUZZ_DIR)/fuzz_%,fuzz-run-%,$(FUZZ_BINS))
fuzz-run-%: $(FUZZ_DIR)/fuzz_%
	@dict=fuzz/options.dict; [ $* = load ] && dict=fuzz/json.dict; \
	mkdir -p $(FUZZ_DIR)/found-$*; \
	if ! $< -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -dict=$$dict \
		-artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/found-$* fuzz/corpus/$* \
		>$(FUZZ_DIR)/fuzz_$*.log 2>&1; then \
		tail -n 60 $(FUZZ_DIR)/fuzz_$*.log; echo "fuzz_$*: FAILED"; exit 1; \
	fi; \
	{ echo "fuzz_$*: $(FUZZ_SECONDS) s"; grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' \
		$(FUZZ_DIR)/fuzz_$*.log | sed "s/^/  /"; }
