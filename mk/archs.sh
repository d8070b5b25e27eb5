#!/bin/sh
# archs.sh PLATFORM COMPILER CACHE ARCH... - which of the ARCHs (sm numbers such as
# 90 for nvidia, gfx names for amd) COMPILER can build code for, asked of the
# compiler itself: nvcc lists its targets; hipcc is given a device-only compile of
# an empty file per target. The answer is kept in the file CACHE, keyed by the
# compiler's path, its modification time and the question, so that a slow
# compiler is asked once per build folder. Prints the supported ARCHs on one line.
platform=$1 compiler=$2 cache=$3
shift 3

path=$(command -v "$compiler" 2>/dev/null) || exit 0
key="$platform $(realpath "$path") $(stat -L -c %Y "$path") $*"
if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "$key" ]; then
	sed -n 2p "$cache"
	exit 0
fi

supported=""
case $platform in
nvidia)
	codes=$("$compiler" --list-gpu-code 2>/dev/null)
	for a in "$@"; do
		printf '%s\n' "$codes" | grep -qx "sm_$a" && supported="$supported $a"
	done
	;;
amd)
	for a in "$@"; do
		HIP_PLATFORM=amd "$compiler" --offload-arch="$a" -x hip --cuda-device-only -fsyntax-only \
			/dev/null -o /dev/null >/dev/null 2>&1 && supported="$supported $a"
	done
	;;
esac
supported=${supported# }
mkdir -p "$(dirname "$cache")"
printf '%s\n%s\n' "$key" "$supported" >"$cache.$$" && mv "$cache.$$" "$cache"
echo "$supported"
