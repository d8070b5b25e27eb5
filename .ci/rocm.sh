#!/usr/bin/env bash
# The AMD build against the ROCm that nodes run today, with Debian's own
# packages in a root of their own (the system's apt is never mixed with them):
# a minimal sid root with HIP 6.4 (hipcc 7.0 on clang 21, rocm-smi 6.4),
# then the same root moved to experimental's ROCm 7.2 (rocm-smi 7.2). In each:
# the host code and the kernels for gfx90a, gfx942 and gfx950 (the AMD
# telemetry against that rocm_smi.h), the binary's start on a machine without
# a GPU (--version, --help, info: exit 3), and what a compiler changes
# (.ci/compiler.sh: the unit tests, the build's and the command line's, and the
# surface, the same as HMB_SURFACE's where given: another AMD build's).
#
#   .ci/rocm.sh              a fresh root (debootstrap, about 80 s), removed after
#   ROCM_ROOT=DIR .ci/rocm.sh   that root, made if missing and kept (to iterate)
#   ROCM_ROOT=DIR .ci/rocm.sh --prepare   only make that root, with sid's ROCm (CI makes
#                            it in the background while other stages run)
#   HMB_SURFACE=DIR .ci/rocm.sh   each build's surface must be DIR's (tests/surface.py)
set -euo pipefail
cd "$(dirname "$0")/.."

mirror=http://deb.debian.org/debian
archs="gfx90a gfx942 gfx950"
# The registry's snapshot can be older than a Release file's week of validity.
apt_opts="-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -qq"
packages="hipcc libamdhip64-dev librocm-smi-dev gcc g++ make pkg-config \
libdrm-dev libcjson-dev libnuma-dev python3 python3-pytest python3-pytest-xdist python3-jsonschema \
help2man git"

root=${ROCM_ROOT:-}
keep=1
if [ -z "$root" ]; then
	root=$(mktemp -d /tmp/hmb-rocm.XXXXXX)
	keep=0
fi
mounted=()
cleanup() {
	local m
	for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
	[ "$keep" -eq 1 ] || rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'exit 143' TERM

stage() { printf '== rocm: %s\n' "$*"; }
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive bash -c "$1"; }
timed() { # LABEL COMMAND...: runs it, then prints how long it took
	local label=$1 t0=$SECONDS
	shift
	"$@"
	printf '   %s: %d s\n' "$label" $((SECONDS - t0))
}
quiet() { "$@" >/dev/null; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
	command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
	stage "debootstrap sid"
	timed "debootstrap" quiet debootstrap --variant=minbase sid "$root" "$mirror"
fi
for d in proc sys dev dev/pts; do
	mount --bind "/$d" "$root/$d"
	mounted=("$root/$d" "${mounted[@]}")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# (a root made by --prepare has them: nothing to fetch again)
if [ "$(in_root "dpkg-query -W -f='\${db:Status-Abbrev}\n' $packages 2>&1" | grep -vc '^ii')" = 0 ]; then
	stage "ROCm from sid, installed before"
else
	stage "install ROCm from sid"
	timed "apt" in_root "apt-get $apt_opts update && apt-get $apt_opts install -y $packages >/dev/null"
fi
[ "${1:-}" != --prepare ] || exit 0

# The working tree as git sees it (tracked and new files), without build folders.
rm -rf "$root/src"
mkdir -p "$root/src"
git ls-files -co --exclude-standard -z | tar --null -cf - -T - | tar -xf - -C "$root/src"
ref=
if [ -n "${HMB_SURFACE:-}" ]; then
	cp -r "$HMB_SURFACE" "$root/src/ref-surface"
	ref=ref-surface
fi

# One suite: build, start without a GPU, tests. $1 names it.
suite() {
	local name=$1 t0=$SECONDS
	stage "$name: $(in_root 'hipconfig --version 2>/dev/null; echo " (hipcc $(dpkg-query -W -f="\${Version}" hipcc))"' | tr -d '\n')"
	in_root "cd /src && rm -rf build-amd && make WERROR=1 PLATFORM=amd OFFLOAD_ARCH='$archs' BUILD=build-amd -j2 >/dev/null"
	printf '   build (host code and kernels for %s): %d s\n' "$archs" $((SECONDS - t0))
	# the emulated runtime with this compiler too (its tests run in the bookworm stages)
	in_root "cd /src && make WERROR=1 BUILD=build-amd -j2 emulated >/dev/null"
	echo "   make emulated builds"
	in_root 'cd /src && set -e
		build-amd/hipmembench --version
		build-amd/hipmembench --help >/dev/null
		rc=0; build-amd/hipmembench info >/dev/null 2>err || rc=$?
		[ "$rc" -eq 3 ] || { echo "info without a GPU: exit $rc, not 3"; cat err; exit 1; }
		echo "   without a GPU: --version, --help, and info (exit 3: $(tail -n 1 err))"'
	# the AMD telemetry was built with this root's rocm_smi.h (its typed calls, and each
	# entry point checked against the header's prototype), not without it
	in_root 'cd /src && printf "%s\n" "#include \"telemetry/telemetry_amd.h\"" \
		"_Static_assert(HMB_RSMI_HEADER, \"built without rocm_smi.h\");" \
		"int major = rocm_smi_VERSION_MAJOR;" | cc -std=c11 -Isrc -I. -fsyntax-only -x c - &&
		echo "   the AMD telemetry built with rocm_smi.h of $(dpkg-query -W -f="\${Version}" librocm-smi-dev)"'
	in_root "cd /src && make WERROR=1 PLATFORM=amd OFFLOAD_ARCH='$archs' BUILD=build-amd -j2 \
		build-amd/unit_tests >/dev/null && .ci/compiler.sh build-amd $ref"
}

suite "HIP 6.4 (sid)"
# a user's flags on current compilers, warnings as errors: -O3 and clang (kernels for one arch)
t0=$SECONDS
in_root 'cd /src && cc=$(command -v clang || ls /usr/bin/clang-[0-9]* | sort -V | tail -n 1) &&
	make WERROR=1 CFLAGS=-O3 PLATFORM=amd OFFLOAD_ARCH=gfx90a BUILD=build-o3 -j2 >/dev/null &&
	make WERROR=1 CC="$cc" PLATFORM=amd OFFLOAD_ARCH=gfx90a BUILD=build-clang -j2 >/dev/null &&
	rm -rf build-o3 build-clang && echo "   make CFLAGS=-O3 and make CC=$cc build"'
printf '   a user'"'"'s flags: %d s\n' $((SECONDS - t0))

stage "install ROCm 7.2 from experimental"
echo "deb $mirror experimental main" >"$root/etc/apt/sources.list.d/experimental.list"
timed "apt" in_root "apt-get $apt_opts update && apt-get $apt_opts install -y -t experimental \
	hipcc libamdhip64-dev librocm-smi-dev >/dev/null"
suite "ROCm 7.2 (experimental)"
