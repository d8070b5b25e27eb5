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
LDLIBS  := -lcjson -lnuma -lm -ldl -lpthread

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
	cp -L $$($(CC) -print-file-name=libnuma.so.1) $(BUILD)/lib/

clean:
	rm -rf $(BUILD)

-include $(OBJ_C:.o=.d) $(TEST_C:%.c=$(OBJDIR)/%.d)
