#!/usr/bin/env bash
# setup.sh - from a fresh clone to a built hipmembench. Checks what the build
# needs (make, C and C++ compilers, pkg-config, cJSON, libnuma, help2man, and
# CUDA's nvcc or ROCm's hipcc) and installs the missing distribution packages (apt
# on Debian/Ubuntu, dnf on Fedora/RHEL; through sudo when not root); where it
# cannot, it prints the exact commands for apt, dnf and Spack and stops. Then it
# builds with make; its arguments go to make (e.g. PLATFORM=amd).
#
#   scripts/setup.sh [MAKE VARIABLES...]
#   scripts/setup.sh --check     say what is missing (exit 1 if anything), change nothing
#   scripts/setup.sh --tests     the same for what `make test` needs (python3, pytest,
#                                pytest-xdist, jsonschema, for $PYTHON, else
#                                /usr/bin/python3, else python3); builds nothing. With
#                                --check: only reports.
set -euo pipefail
cd "$(dirname "$0")/.."

check_only=0
tests=0
while [ $# -gt 0 ]; do
	case $1 in
	--check) check_only=1 ;;
	--tests) tests=1 ;;
	*) break ;;
	esac
	shift
done

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

# Does the C compiler find header $1 (the -dev package holds the library too)?
have_header() {
	if have cc; then
		printf '#include <%s>\n' "$1" | cc ${CPPFLAGS:-} -E -x c - >/dev/null 2>&1
		return
	fi
	[ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]
}

have_cjson() {
	if have pkg-config && pkg-config --exists libcjson 2>/dev/null; then
		return 0
	fi
	have_header cjson/cJSON.h
}

have_toolkit() {
	have nvcc || have hipcc || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] ||
		[ -x "${ROCM_PATH:-/opt/rocm}/bin/hipcc" ] || [ -x /usr/local/cuda/bin/nvcc ]
}

# The Python that `make test` runs (the Makefile chooses the same way).
python=${PYTHON:-python3}
[ -n "${PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] || python=/usr/bin/python3
have_module() { have "$python" && "$python" -c "import $1" >/dev/null 2>&1; }

# What is missing: its name, then its package on Debian/Ubuntu, Fedora/RHEL, Spack.
missing=()
need() { missing+=("$1|$2|$3|$4"); }
check() {
	missing=()
	if [ "$tests" -eq 1 ]; then
		have "$python" || need python3 python3 python3 python
		have_module pytest || need pytest python3-pytest python3-pytest py-pytest
		have_module xdist || need pytest-xdist python3-pytest-xdist python3-pytest-xdist py-pytest-xdist
		have_module jsonschema || need jsonschema python3-jsonschema python3-jsonschema py-jsonschema
		return
	fi
	have make || need make make make gmake
	have cc || need "C compiler" gcc gcc gcc
	have c++ || need "C++ compiler" g++ gcc-c++ gcc
	have pkg-config || need pkg-config pkg-config pkgconf-pkg-config pkgconf
	have_cjson || need cJSON libcjson-dev cjson-devel cjson
	have_header numa.h || need libnuma libnuma-dev numactl-devel numactl
	have help2man || need help2man help2man help2man help2man
}

packages() { # column 2 (Debian), 3 (Fedora) or 4 (Spack) of the missing list
	local m
	for m in "${missing[@]}"; do cut -d'|' -f"$1" <<<"$m"; done | sort -u | tr '\n' ' ' | sed 's/ $//'
}
names() { for m in "${missing[@]}"; do cut -d'|' -f1 <<<"$m"; done | paste -sd, - | sed 's/,/, /g'; }

# Install the missing packages as root, or through sudo; fails where neither can.
install_missing() {
	local sudo=""
	[ "$check_only" -eq 0 ] && [ "$family" != other ] || return 1
	if [ "$(id -u)" -ne 0 ]; then
		have sudo || return 1
		sudo=sudo
	fi
	echo "setup: installing $(names)${sudo:+ (through sudo)}"
	if [ "$family" = debian ]; then
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
			# shellcheck disable=SC2046 # a list of packages
			$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				$(packages 2) >/dev/null
	else
		# shellcheck disable=SC2046
		$sudo dnf install -y $(packages 3)
	fi
}

check
if [ ${#missing[@]} -gt 0 ]; then
	install_missing || true
	check
fi
if [ ${#missing[@]} -gt 0 ]; then
	again=scripts/setup.sh
	[ "$tests" -eq 0 ] || again="make test"
	sudo="sudo "
	[ "$(id -u)" -ne 0 ] || sudo=""
	epel=""
	case " $(packages 3) " in *" cjson-devel "*) epel="   (RHEL: cjson-devel from EPEL)" ;; esac
	{
		echo "setup: missing $(names). Install, then run $again again:"
		echo "  Debian/Ubuntu:  ${sudo}apt-get install $(packages 2)"
		echo "  Fedora/RHEL:    ${sudo}dnf install $(packages 3)$epel"
		echo "  Spack:          spack install $(packages 4) && spack load $(packages 4)"
		echo "  modules:        module load $(packages 4)   (names vary by site: 'module avail NAME' lists them)"
		if [ "$tests" -eq 1 ]; then
			echo "  the tests run $python; another Python (Spack's, a module's): make test PYTHON=python3"
		fi
		case " $(names | sed 's/,//g') " in *" cJSON "* | *" libnuma "*)
			echo "  a library outside the system's paths is found through PKG_CONFIG_PATH (cJSON), or"
			echo "     make CPPFLAGS=-I<dir>/include LDFLAGS=-L<dir>/lib"
			;;
		esac
	} >&2
	exit 1
fi
if [ "$tests" -eq 1 ]; then
	[ "$check_only" -eq 0 ] || echo "setup: everything the tests need is here"
	exit 0
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
