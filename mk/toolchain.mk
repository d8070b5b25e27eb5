# toolchain.mk - finds nvcc and hipcc, settles PLATFORM (auto: the vendor of the
# GPU here; without one nvcc where present, as it builds every default target,
# else hipcc) and the GPU architectures (the GPUs here, else every one of a list
# that the compiler says it supports). Sets PLATFORM, ARCHS, DEVCC, DEVFLAGS,
# PLATFORM_CPPFLAGS and LINK for the Makefile.

# PLATFORM=emulated needs no GPU compiler: the HIP calls and kernels are C
# (src/platform/hip_emulated.c, kernels/emulated.c), built and linked by CC.
ifeq ($(PLATFORM),emulated)
  ARCHS := emulated
  DEVCC := none
  DEVFLAGS :=
  PLATFORM_CPPFLAGS := -DHMB_PLATFORM_EMULATED
  LINKER := $(CC)
  PLATFORM_LIBS :=
else
comma := ,
have = $(shell command -v $(1) 2>/dev/null)

MISSING_TOOLCHAIN := no GPU compiler found: install CUDA's nvcc (Debian/Ubuntu: \
  nvidia-cuda-toolkit; Fedora/RHEL: cuda-toolkit from NVIDIA's repository; Spack: cuda) \
  or ROCm's hipcc (Debian/Ubuntu: hipcc libamdhip64-dev; Fedora/RHEL: hipcc rocm-hip-devel; \
  Spack: hip), or point CUDA_HOME or ROCM_PATH at one

# -- CUDA: CUDA_HOME (or CUDA_PATH), else the nvcc on PATH, else /usr/local/cuda.
ifndef CUDA_HOME
  nvcc_on_path := $(call have,nvcc)
  CUDA_HOME := $(or $(CUDA_PATH),$(firstword $(foreach d,$(patsubst %/bin/nvcc,%,\
    $(nvcc_on_path) $(realpath $(nvcc_on_path))),$(if $(wildcard $(d)/include/cuda_runtime_api.h),$(d)))),\
    /usr/local/cuda)
endif
NVCC ?= $(firstword $(wildcard $(CUDA_HOME)/bin/nvcc) nvcc)

# -- ROCm: HIP_PATH, else ROCM_PATH, else hipconfig --path, else /opt/rocm.
ifndef HIP_PATH
  HIP_PATH := $(or $(ROCM_PATH),$(shell hipconfig --path 2>/dev/null),/opt/rocm)
endif
HIPCC ?= $(firstword $(wildcard $(HIP_PATH)/bin/hipcc) hipcc)

HAVE_NVCC  := $(call have,$(NVCC))
HAVE_HIPCC := $(call have,$(HIPCC))

# -- the GPUs here: "amd gfx90a ...", "nvidia 90 ..." or nothing (mk/gpus.sh)
GPUS_HERE  := $(shell sh mk/gpus.sh)
GPU_VENDOR := $(firstword $(GPUS_HERE))
GPU_ARCHS  := $(wordlist 2,99,$(GPUS_HERE))

ifeq ($(PLATFORM),auto)
  ifeq ($(GPU_VENDOR):$(if $(HAVE_HIPCC),hipcc),amd:hipcc)
    PLATFORM := amd
  else ifeq ($(GPU_VENDOR):$(if $(HAVE_NVCC),nvcc),nvidia:nvcc)
    PLATFORM := nvidia
  else ifneq ($(and $(HAVE_HIPCC),$(OFFLOAD_ARCH)),)
    PLATFORM := amd
  else ifneq ($(HAVE_NVCC),)
    PLATFORM := nvidia
  else ifneq ($(HAVE_HIPCC),)
    PLATFORM := amd
  else
    $(error $(MISSING_TOOLCHAIN))
  endif
  ifneq ($(filter-out $(PLATFORM),$(GPU_VENDOR)),)
    $(warning the GPUs here are $(GPU_VENDOR) but only the $(PLATFORM) toolchain was found: the binary will not run on them)
  endif
endif

ifeq ($(PLATFORM),nvidia)
  ifeq ($(HAVE_NVCC),)
    $(error nvcc not found (NVCC=$(NVCC), CUDA_HOME=$(CUDA_HOME)): install CUDA \
      (Debian/Ubuntu: nvidia-cuda-toolkit; Fedora/RHEL: cuda-toolkit from NVIDIA's \
      repository; Spack: cuda) or set CUDA_HOME)
  endif
  DEVCC := $(NVCC)
  ARCH_VAR := CUDA_ARCH
  CANDIDATES := 80 90 100
else ifeq ($(PLATFORM),amd)
  ifeq ($(HAVE_HIPCC),)
    $(error hipcc not found (HIPCC=$(HIPCC), HIP_PATH=$(HIP_PATH)): install ROCm \
      (Debian/Ubuntu: hipcc libamdhip64-dev; Fedora/RHEL: hipcc rocm-hip-devel; Spack: hip) \
      or set ROCM_PATH)
  endif
  DEVCC := $(HIPCC)
  ARCH_VAR := OFFLOAD_ARCH
  # Some hipcc builds (Debian's) choose the NVIDIA path by themselves where
  # /usr/local/cuda exists; this build is for AMD.
  export HIP_PLATFORM := amd
  CANDIDATES := gfx908 gfx90a gfx942 gfx950
else
  $(error PLATFORM must be auto, amd, nvidia or emulated, not '$(PLATFORM)')
endif

# Of the architectures $(1), those DEVCC can build for; asked once per build folder
# (mk/archs.sh keeps the answer).
supported = $(shell sh mk/archs.sh $(PLATFORM) $(DEVCC) $(BUILD)/archs-$(PLATFORM) $(1))

# CUDA_ARCH or OFFLOAD_ARCH, unless given: the GPUs here, else the candidates the
# compiler supports.
ifeq ($(origin $(ARCH_VAR)),undefined)
  ifeq ($(GPU_VENDOR),$(PLATFORM))
    unbuildable := $(filter-out $(call supported,$(GPU_ARCHS)),$(GPU_ARCHS))
    ifneq ($(unbuildable),)
      $(error the GPUs here include $(unbuildable), which $(DEVCC) cannot build for: use a \
        newer toolkit (CUDA_HOME or ROCM_PATH) or set $(ARCH_VAR))
    endif
    $(ARCH_VAR) := $(GPU_ARCHS)
  else
    $(ARCH_VAR) := $(call supported,$(CANDIDATES))
  endif
endif
ifeq ($(strip $($(ARCH_VAR))),)
  $(error $(DEVCC) supports none of $(CANDIDATES): set $(ARCH_VAR))
endif
# AMD architectures asked for by name that this hipcc cannot build: one line
# that names them, rather than the compiler's own error for every file.
ifeq ($(PLATFORM):$(origin OFFLOAD_ARCH),amd:command line)
  unbuildable := $(filter-out $(call supported,$(OFFLOAD_ARCH)),$(OFFLOAD_ARCH))
  ifneq ($(unbuildable),)
    $(error $(DEVCC) (HIP $(shell $(HIP_PATH)/bin/hipconfig --version 2>/dev/null || hipconfig \
      --version 2>/dev/null)) cannot build for $(unbuildable): leave it out of OFFLOAD_ARCH, or \
      use a ROCm that can (gfx942 needs 6.0 or later, gfx950 6.4 or later) through ROCM_PATH)
  endif
endif
ifeq ($(PLATFORM),nvidia)
  # Accept 90, sm_90, compute_90 or 9.0.
  SM := $(subst .,,$(patsubst sm_%,%,$(patsubst compute_%,%,$(CUDA_ARCH))))
  ARCHS := $(addprefix sm_,$(SM))
  NEWEST := $(lastword $(shell printf '%s\n' $(SM) | sort -n))
  CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
  PLATFORM_CPPFLAGS := -DHMB_PLATFORM_NVIDIA $(filter-out -I/usr/include,-I$(CUDA_HOME)/include)
  NVCCFLAGS ?=
  # Code for each architecture, plus PTX of the newest for GPUs newer still.
  DEVFLAGS := -O2 -std=c++17 -DHMB_PLATFORM_NVIDIA -Isrc -I. \
              $(foreach a,$(SM),-gencode arch=compute_$(a),code=sm_$(a)) \
              -gencode arch=compute_$(NEWEST),code=compute_$(NEWEST) \
              $(NVCCFLAGS)
  COMPILE_KERNEL = $(DEVCC) $(DEVFLAGS) -x cu -c $< -o $@
  # Linked by the host's C++ compiler, so that LDFLAGS are the usual linker flags.
  LINKER   := $(CXX)
  PLATFORM_LIBS := $(if $(CUDA_LIBDIR),-L$(CUDA_LIBDIR)) -lcudart_static -lrt
else
  ARCHS := $(OFFLOAD_ARCH)
  PLATFORM_CPPFLAGS := -D__HIP_PLATFORM_AMD__ $(filter-out -I/usr/include,-I$(HIP_PATH)/include)
  HIPCCFLAGS ?=
  DEVFLAGS := -O2 -std=c++17 -Isrc -I. $(addprefix --offload-arch=,$(OFFLOAD_ARCH)) \
              $(HIPCCFLAGS)
  COMPILE_KERNEL = $(DEVCC) $(DEVFLAGS) -c $< -o $@
  # The targets again, or hipcc runs rocm_agent_enumerator (tracebacks without a GPU).
  LINKER   := $(HIPCC) $(addprefix --offload-arch=,$(OFFLOAD_ARCH))
  PLATFORM_LIBS :=
endif
endif # emulated
