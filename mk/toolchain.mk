# toolchain.mk - finds nvcc and hipcc, settles PLATFORM (auto: the vendor of the
# GPU here; without one nvcc where present, as it builds every default target,
# else hipcc) and the GPU architectures (the GPUs here, else every one of a list
# that the compiler says it supports). Sets PLATFORM, ARCHS, DEVCC, DEVFLAGS,
# PLATFORM_CPPFLAGS and LINK for the Makefile.

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

# Of the architectures $(2) (a list), those the compiler of platform $(1) can
# build for; asked once per build folder (mk/archs.sh keeps the answer).
supported = $(shell sh mk/archs.sh $(1) $(if $(filter nvidia,$(1)),$(NVCC),$(HIPCC)) \
  $(BUILD)/archs-$(1) $(2))

ifeq ($(PLATFORM),nvidia)
  ifeq ($(HAVE_NVCC),)
    $(error nvcc not found (NVCC=$(NVCC), CUDA_HOME=$(CUDA_HOME)): install CUDA \
      (Debian/Ubuntu: nvidia-cuda-toolkit; Fedora/RHEL: cuda-toolkit from NVIDIA's \
      repository; Spack: cuda) or set CUDA_HOME)
  endif
  ifndef CUDA_ARCH
    ifeq ($(GPU_VENDOR),nvidia)
      CUDA_ARCH := $(GPU_ARCHS)
      unbuildable := $(filter-out $(call supported,nvidia,$(GPU_ARCHS)),$(GPU_ARCHS))
      ifneq ($(unbuildable),)
        $(error the GPUs here include sm_$(unbuildable), which $(NVCC) cannot build for: \
          use a newer CUDA (CUDA_HOME=...) or set CUDA_ARCH)
      endif
    else
      CUDA_ARCH := $(call supported,nvidia,80 90 100)
    endif
  endif
  # Accept 90, sm_90, compute_90 or 9.0.
  CUDA_ARCH := $(subst .,,$(patsubst sm_%,%,$(patsubst compute_%,%,$(CUDA_ARCH))))
  ifeq ($(strip $(CUDA_ARCH)),)
    $(error $(NVCC) supports none of sm_80 sm_90 sm_100: set CUDA_ARCH, e.g. CUDA_ARCH=75)
  endif
  ARCHS := $(addprefix sm_,$(CUDA_ARCH))
  CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
  PLATFORM_CPPFLAGS := -DHMB_PLATFORM_NVIDIA $(filter-out -I/usr/include,-I$(CUDA_HOME)/include)
  NVCCFLAGS ?=
  DEVCC    := $(NVCC)
  # Code for each architecture, plus PTX of the newest for GPUs newer still.
  DEVFLAGS := -O2 -std=c++17 -DHMB_PLATFORM_NVIDIA -Isrc -Ikernels \
              $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
              -gencode arch=compute_$(lastword $(CUDA_ARCH)),code=compute_$(lastword $(CUDA_ARCH)) \
              $(NVCCFLAGS)
  COMPILE_KERNEL = $(DEVCC) $(DEVFLAGS) -x cu -c $< -o $@
  # Linked by the host's C++ compiler, so that LDFLAGS are the usual linker flags.
  LINKER   := $(CXX)
  PLATFORM_LIBS := $(if $(CUDA_LIBDIR),-L$(CUDA_LIBDIR)) -lcudart_static -lrt
else ifeq ($(PLATFORM),amd)
  ifeq ($(HAVE_HIPCC),)
    $(error hipcc not found (HIPCC=$(HIPCC), HIP_PATH=$(HIP_PATH)): install ROCm \
      (Debian/Ubuntu: hipcc libamdhip64-dev; Fedora/RHEL: hipcc rocm-hip-devel; Spack: hip) \
      or set ROCM_PATH)
  endif
  ifndef OFFLOAD_ARCH
    ifeq ($(GPU_VENDOR),amd)
      OFFLOAD_ARCH := $(GPU_ARCHS)
      unbuildable := $(filter-out $(call supported,amd,$(GPU_ARCHS)),$(GPU_ARCHS))
      ifneq ($(unbuildable),)
        $(error the GPUs here include $(unbuildable), which $(HIPCC) cannot build for: \
          use a newer ROCm (ROCM_PATH=...) or set OFFLOAD_ARCH)
      endif
    else
      OFFLOAD_ARCH := $(call supported,amd,gfx908 gfx90a gfx942 gfx950)
    endif
  endif
  ifeq ($(strip $(OFFLOAD_ARCH)),)
    $(error $(HIPCC) supports none of gfx908 gfx90a gfx942 gfx950: set OFFLOAD_ARCH)
  endif
  ARCHS := $(OFFLOAD_ARCH)
  PLATFORM_CPPFLAGS := -D__HIP_PLATFORM_AMD__ $(filter-out -I/usr/include,-I$(HIP_PATH)/include)
  HIPCCFLAGS ?=
  DEVCC    := $(HIPCC)
  DEVFLAGS := -O2 -std=c++17 -Isrc -Ikernels $(addprefix --offload-arch=,$(OFFLOAD_ARCH)) \
              $(HIPCCFLAGS)
  COMPILE_KERNEL = $(DEVCC) $(DEVFLAGS) -c $< -o $@
  # The targets again, or hipcc runs rocm_agent_enumerator (tracebacks without a GPU).
  LINKER   := $(HIPCC) $(addprefix --offload-arch=,$(OFFLOAD_ARCH))
  PLATFORM_LIBS :=
else
  $(error PLATFORM must be auto, amd or nvidia, not '$(PLATFORM)')
endif
