# hipmembench - build for AMD (hipcc, ROCm) or NVIDIA (nvcc, CUDA 12/13).
#
#   make                      PLATFORM=auto: amd where hipconfig says so, else nvidia
#   make PLATFORM=nvidia      CUDA_ARCH=90 (default; sm_90 code plus PTX)
#   make PLATFORM=amd         OFFLOAD_ARCH="gfx90a gfx942" (default: the GPUs present)
#   make test                 unit tests, CLI tests, GPU tests (skipped without a GPU)
#   make clean

PLATFORM ?= auto
ifeq ($(PLATFORM),auto)
  ifeq ($(shell hipconfig --platform 2>/dev/null),amd)
    PLATFORM := amd
  else ifneq ($(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null),)
    PLATFORM := nvidia
  else
    $(error no HIP (hipconfig) or CUDA (nvcc) toolchain found: set PLATFORM=amd or nvidia)
  endif
endif

BUILD   ?= build
OBJDIR  := $(BUILD)/obj-$(PLATFORM)
BIN     := $(BUILD)/hipmembench
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Isrc -MMD -MP \
           -DHMB_GIT_REVISION='"$(GIT_REV)"'
LDLIBS  := -lcjson -lm -ldl -lpthread

SRC_C   := $(wildcard src/*.c) $(wildcard bench/*.c)
KERNELS := $(wildcard kernels/*.hip)

ifeq ($(PLATFORM),nvidia)
  CUDA_HOME ?= /usr/local/cuda
  NVCC      ?= $(CUDA_HOME)/bin/nvcc
  CUDA_ARCH ?= 90
  CFLAGS    += -DHMB_PLATFORM_NVIDIA -I$(CUDA_HOME)/include
  SRC_C     += src/platform/hip_on_cuda.c
  DEVFLAGS  := -O2 -std=c++17 -DHMB_PLATFORM_NVIDIA -Isrc -Ikernels \
               $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
               -gencode arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH))
  COMPILE_KERNEL = $(NVCC) $(DEVFLAGS) -x cu -c $< -o $@
  LINK      = $(NVCC) -o $@ $^ $(LDLIBS) -Xlinker -rpath -Xlinker '$$ORIGIN/lib'
else ifeq ($(PLATFORM),amd)
  HIPCC     ?= hipcc
  HIP_PATH  ?= $(shell hipconfig --path 2>/dev/null || echo /opt/rocm)
  OFFLOAD_ARCH ?= $(or $(shell rocm_agent_enumerator 2>/dev/null | grep -v gfx000 | sort -u),gfx90a gfx942)
  CFLAGS    += -D__HIP_PLATFORM_AMD__ $(filter-out -I/usr/include,-I$(HIP_PATH)/include)
  DEVFLAGS  := -O2 -std=c++17 -Isrc -Ikernels $(addprefix --offload-arch=,$(OFFLOAD_ARCH))
  COMPILE_KERNEL = $(HIPCC) $(DEVFLAGS) -c $< -o $@
  LINK      = $(HIPCC) -o $@ $^ $(LDLIBS) -Wl,-rpath,'$$ORIGIN/lib'
else
  $(error PLATFORM must be auto, amd or nvidia, not '$(PLATFORM)')
endif

OBJ_C   := $(SRC_C:%.c=$(OBJDIR)/%.o)
OBJ_K   := $(KERNELS:%.hip=$(OBJDIR)/%.o)
LIB_OBJ := $(filter-out $(OBJDIR)/src/main.o,$(OBJ_C)) $(OBJ_K)
TEST_C  := $(wildcard tests/unit/*.c)
TEST_BIN := $(BUILD)/unit_tests

.PHONY: all test clean portable
all: $(BIN)

$(BIN): $(OBJ_C) $(OBJ_K)
	$(LINK)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(OBJDIR)/kernels/%.o: kernels/%.hip kernels/kernels.h kernels/pattern.h kernels/hip_device.h
	@mkdir -p $(dir $@)
	$(COMPILE_KERNEL)

$(TEST_BIN): $(TEST_C:%.c=$(OBJDIR)/%.o) $(LIB_OBJ)
	$(LINK)

test: $(BIN) $(TEST_BIN)
	BIN=$(BIN) UNIT=$(TEST_BIN) bash tests/run.sh

# Copy the shared libraries that a bare GPU node may lack next to the binary
# (build/lib, found through its rpath), so that build/ can be copied there.
portable: $(BIN)
	@mkdir -p $(BUILD)/lib
	cp -L $$($(CC) -print-file-name=libcjson.so.1) $(BUILD)/lib/

clean:
	rm -rf $(BUILD)

-include $(OBJ_C:.o=.d) $(TEST_C:%.c=$(OBJDIR)/%.d)

# ---- sanitizers and fuzzing ---------------------------------------------------
# make sanitize   the host code built with AddressSanitizer and UBSan (in
#                 $(BUILD)/sanitize), then every test of `make test` against it:
#                 any report fails the test that ran into it.
# make fuzz       libFuzzer targets (clang from the distribution) for the size
#                 parser, the command line, and reading documents with compare,
#                 each for FUZZ_SECONDS (60) from its seeds in fuzz/corpus/; a
#                 crash, leak or sanitizer report fails, its input is kept as
#                 $(BUILD)/fuzz/crash-*.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SANITIZE),1)
  CFLAGS += $(SAN_FLAGS)
  ifeq ($(PLATFORM),nvidia)
    LDLIBS += -Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined
  else
    LDLIBS += $(SAN_FLAGS)
  endif
endif

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_CFLAGS  := -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -Ifuzz -Wall -Wextra -Werror \
                $(filter -D% -I%,$(CPPFLAGS) $(CFLAGS)) \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BASE    := src/sizes.c src/text.c src/util.c
FUZZ_OPTIONS := $(FUZZ_BASE) src/cli.c src/options.c src/help.c
FUZZ_LOAD    := $(FUZZ_BASE) src/json.c src/compare.c src/record.c src/stats.c src/host.c \
                src/telemetry.c src/telemetry_nvml.c src/telemetry_rocm_smi.c
FUZZ_BINS    := $(FUZZ_DIR)/fuzz_sizes $(FUZZ_DIR)/fuzz_options $(FUZZ_DIR)/fuzz_load

.PHONY: sanitize fuzz fuzz-build
sanitize:
	ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(MAKE) SANITIZE=1 PLATFORM=$(PLATFORM) BUILD=$(BUILD)/sanitize test

$(FUZZ_DIR)/fuzz_sizes: fuzz/fuzz_sizes.c $(FUZZ_BASE)
$(FUZZ_DIR)/fuzz_options: fuzz/fuzz_options.c $(FUZZ_OPTIONS)
$(FUZZ_DIR)/fuzz_load: fuzz/fuzz_load.c $(FUZZ_LOAD)
$(FUZZ_BINS): fuzz/fuzz_check.h $(wildcard src/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ -lcjson -lm -ldl

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@for t in sizes options load; do \
		dict=fuzz/options.dict; [ $$t = load ] && dict=fuzz/json.dict; \
		mkdir -p $(FUZZ_DIR)/found-$$t; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
		if ! $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 -dict=$$dict \
			-artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/found-$$t fuzz/corpus/$$t \
			>$(FUZZ_DIR)/fuzz_$$t.log 2>&1; then \
			tail -n 60 $(FUZZ_DIR)/fuzz_$$t.log; echo "fuzz_$$t: FAILED"; exit 1; \
		fi; \
		grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' \
			$(FUZZ_DIR)/fuzz_$$t.log | sed "s/^/  /"; \
	done
