#!/bin/sh
# check_amd_layouts.sh - check the AMD telemetry's layout table
# (src/telemetry/amd_smi_layouts.c) against the real rocm_smi.h and amdsmi.h under
# each include root given: the layout that the header's library version
# selects must match the header's sizes and offsets, and each entry point
# looked up with dlsym must have the prototype it is called with. The AMD
# telemetry sources and their unit tests are compiled with the headers on
# the include path as well (they must not depend on them).
#   tests/check_amd_layouts.sh /usr/include [/tmp/sid/usr/include ...]
# Needs a C compiler (CC, else cc) and the headers (librocm-smi-dev, with
# libdrm-dev that its kfd_ioctl.h includes from 6.x on; libamd-smi-dev);
# nothing is linked against the libraries. Exit 0 when every
# root matches, 1 on a mismatch (or a header that does not compile), 2 on
# bad usage or a root without either header.
set -eu

if [ $# -eq 0 ]; then
	echo "usage: $0 INCLUDE_ROOT..." >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hmb-layouts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
n=0

for root in "$@"; do
	n=$((n + 1))
	inc=$tmp/inc$n
	mkdir -p "$inc"
	have_rsmi=0
	have_amdsmi=0
	v6=0
	indep=0
	# Only the libraries' folders are copied, so that the root's C library
	# headers do not replace the compiler's.
	if [ -f "$root/rocm_smi/rocm_smi.h" ]; then
		cp -R "$root/rocm_smi" "$inc/"
		have_rsmi=1
		grep -q 'rsmi_dev_activity_metric_get' "$root/rocm_smi/rocm_smi.h" && v6=1
		grep -q 'indep_throttle_status' "$root/rocm_smi/rocm_smi.h" && indep=1
		if [ -d "$root/libdrm" ]; then
			cp -R "$root/libdrm" "$inc/"
		fi
	fi
	if [ -f "$root/amd_smi/amdsmi.h" ]; then
		cp -R "$root/amd_smi" "$inc/"
		have_amdsmi=1
	fi
	echo "== $root"
	if [ $have_rsmi = 0 ] && [ $have_amdsmi = 0 ]; then
		echo "no rocm_smi/rocm_smi.h nor amd_smi/amdsmi.h under $root" >&2
		exit 2
	fi
	if ! "$cc" -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
		-I"$inc" -I"$top/src" -I"$top" -DHMB_HAVE_RSMI=$have_rsmi -DHMB_HAVE_AMDSMI=$have_amdsmi \
		-DHMB_RSMI_V6_CALLS=$v6 -DHMB_RSMI_INDEP_THROTTLE=$indep \
		"$top/tests/layouts/check_amd_layouts.c" "$top/src/telemetry/amd_smi_layouts.c" \
		-o "$tmp/check$n"; then
		echo "layout check: FAILED (the checker does not compile against $root)"
		status=1
		continue
	fi
	"$tmp/check$n" || status=1
	built=ok
	for f in src/telemetry/telemetry_rocm_smi.c src/telemetry/telemetry_amdsmi.c src/telemetry/amd_gpu_metrics.c \
		src/telemetry/amd_smi_layouts.c src/system/kfd.c tests/unit/test_amd_layouts.c; do
		if ! "$cc" -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I"$inc" \
			-I"$top/src" -I"$top" -I"$top/tests/unit" -fsyntax-only "$top/$f"; then
			built=FAILED
			status=1
		fi
	done
	echo "telemetry sources built with these headers on the include path: $built"
done
exit $status
