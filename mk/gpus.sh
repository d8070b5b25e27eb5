#!/bin/sh
# gpus.sh - the GPUs present on this machine, for the Makefile's defaults: prints
# "amd gfx90a ..." (AMD agents known to the kernel driver), "nvidia 90 80 ..."
# (compute capabilities from nvidia-smi), or nothing. Reads sysfs and asks
# nvidia-smi only where a driver is loaded, so it prints no errors without a GPU.
# HMB_GPUS_ROOT (tests only) prefixes /dev, /sys and /proc.
R=${HMB_GPUS_ROOT:-}

amd=""
if [ -e "$R/dev/kfd" ]; then
	for props in "$R"/sys/class/kfd/kfd/topology/nodes/*/properties; do
		[ -r "$props" ] || continue
		# gfx_target_version is major*10000 + minor*100 + stepping; 0 for a CPU.
		v=$(awk '$1 == "gfx_target_version" { print $2 }' "$props")
		[ -n "$v" ] && [ "$v" -gt 0 ] 2>/dev/null || continue
		amd="$amd $(printf 'gfx%d%x%x' $((v / 10000)) $((v / 100 % 100)) $((v % 100)))"
	done
fi
if [ -n "$amd" ]; then
	echo amd $(printf '%s\n' $amd | sort -u)
	exit 0
fi

if [ -d "$R/proc/driver/nvidia/gpus" ] && command -v nvidia-smi >/dev/null 2>&1; then
	caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
		tr -d '. ' | grep -E '^[0-9]+$' | sort -un | tr '\n' ' ')
	[ -n "$caps" ] && echo "nvidia ${caps% }"
fi
exit 0
