#!/usr/bin/env bash
# setup.sh - from a fresh clone to a built hipmembench. Checks what the build
# needs (make, C and C++ compilers, pkg-config, cJSON, help2man, and CUDA's nvcc
# or ROCm's hipcc); run as root it installs the missing distribution packages
# (apt on Debian/Ubuntu, dnf on Fedora/RHEL), otherwise it says exactly what to
# install and how: with the distribution, Spack or environment modules. Then it
# builds with make; its arguments go to make (e.g. PLATFORM=amd).
#
#   scripts/setup.sh [MAKE VARIABLES...]
#   scripts/setup.sh --check     say what is missing (exit 1 if anything), change nothing
set -euo pipefail
cd "$(dirname "$0")/.."

check_only=0
if [ "${1:-}" = "--check" ]; then
	check_only=1
	shift
fi

family=other
if [ -r /etc/os-release ]; then
	# shellcheck disable=SC1091
	. /etc/os-release
	case " ${ID:-} ${ID_LIKE:-} " in
	*" debian "* | *" ubuntu "*) family=debian ;;
	*" fedora "* | *" rhel "* | *" centos "*) family=fedora ;;
	esac
fi

have() { command -v "$1" >/dev/null 2>&1; }

have_cjson() {
	if have pkg-config && pkg-config --exists libcjson 2>/dev/null; then
		return 0
	fi
	if have cc; then
		printf '#include <cjson/cJSON.h>\n' | cc ${CPPFLAGS:-} -E -x c - >/dev/null 2>&1
		return
	fi
	[ -f /usr/include/cjson/cJSON.h ] || [ -f /usr/local/include/cjson/cJSON.h ]
}

have_toolkit() {
	have nvcc || have hipcc || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] ||
		[ -x "${ROCM_PATH:-/opt/rocm}/bin/hipcc" ] || [ -x /usr/local/cuda/bin/nvcc ]
}

# What is missing: its name, then its package on Debian/Ubuntu, Fedora/RHEL, Spack.
missing=()
need() { missing+=("$1|$2|$3|$4"); }
have make || need make make make gmake
have cc || need "C compiler" gcc gcc gcc
have c++ || need "C++ compiler" g++ gcc-c++ gcc
have pkg-config || need pkg-config pkg-config pkgconf-pkg-config pkgconf
have_cjson || need cJSON libcjson-dev cjson-devel cjson
have help2man || need help2man help2man help2man help2man

packages() { # column 2 (Debian), 3 (Fedora) or 4 (Spack) of the missing list
	local m
	for m in "${missing[@]}"; do cut -d'|' -f"$1" <<<"$m"; done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

if [ ${#missing[@]} -gt 0 ]; then
	names=$(for m in "${missing[@]}"; do cut -d'|' -f1 <<<"$m"; done | paste -sd, - | sed 's/,/, /g')
	if [ "$(id -u)" -eq 0 ] && [ "$check_only" -eq 0 ] && [ "$family" != other ]; then
		echo "setup: installing $names"
		if [ "$family" = debian ]; then
			export DEBIAN_FRONTEND=noninteractive
			apt-get update -qq
			# shellcheck disable=SC2046 # a list of packages
			apt-get install -y -qq --no-install-recommends $(packages 2) >/dev/null
		else
			# shellcheck disable=SC2046
			dnf install -y $(packages 3) ||
				{ echo "setup: on RHEL, cjson-devel comes from EPEL: dnf install epel-release" >&2; exit 1; }
		fi
		missing=()
	else
		sudo=""
		[ "$(id -u)" -eq 0 ] || sudo="sudo "
		{
			echo "setup: missing $names. Install, then run scripts/setup.sh again:"
			case $family in
			debian) echo "  Debian/Ubuntu:  ${sudo}apt-get install $(packages 2)" ;;
			fedora) echo "  Fedora/RHEL:    ${sudo}dnf install $(packages 3)   (RHEL: cjson-devel from EPEL)" ;;
			*)
				echo "  Debian/Ubuntu:  ${sudo}apt-get install $(packages 2)"
				echo "  Fedora/RHEL:    ${sudo}dnf install $(packages 3)"
				;;
			esac
			echo "  without root, with Spack:  spack install $(packages 4) && spack load $(packages 4)"
			echo "  or with environment modules, where the site has them:  module load $(packages 4)"
			echo "     (names vary by site: 'module avail NAME' lists them)"
			case " ${names//, / } " in *" cJSON "*)
				echo "  a cJSON outside the system's paths is found through PKG_CONFIG_PATH, or"
				echo "     make CPPFLAGS=-I<dir>/include LDFLAGS=-L<dir>/lib"
				;;
			esac
		} >&2
		exit 1
	fi
fi

if ! have_toolkit; then
	{
		echo "setup: no GPU compiler: CUDA's nvcc or ROCm's hipcc is needed."
		echo "  on a cluster:   module load cuda   (or: module load rocm)"
		echo "  with Spack:     spack install cuda && spack load cuda   (or: hip)"
		echo "  Debian/Ubuntu:  apt-get install nvidia-cuda-toolkit, or hipcc libamdhip64-dev;"
		echo "                  or CUDA from NVIDIA, ROCm from AMD (then CUDA_HOME or ROCM_PATH)"
	} >&2
	exit 1
fi
if [ "$check_only" -eq 1 ]; then
	echo "setup: everything the build needs is here"
	exit 0
fi

build=build
for a in "$@"; do
	case $a in BUILD=*) build=${a#BUILD=} ;; esac
done
echo "setup: building: make -j$(nproc) $*"
make -j"$(nproc)" "$@"
echo "setup: built $build/hipmembench: $("$build/hipmembench" --version)"
