#!/usr/bin/env bash
# bare-root.sh - the README's set-up section, word for word, on a bare machine: a
# minimal Debian 12 root (debootstrap --variant=minbase) given nothing but git,
# ca-certificates and, where the host has it, the CUDA toolkit (/usr/local/cuda,
# mounted read-only). Into it goes a clone of this checkout's HEAD, and there the
# two commands of the README's set-up blocks (marked "set-up command 1" and "2")
# run as written, as root. The first must end as `all` does without a GPU (the
# root has no GPU device): exit 3, one line saying why; the second must pass.
# Anything else means the README leaves a step out: this fails. Each stage's time
# is printed. Mounts and the root are removed on every exit.
#
#   .ci/bare-root.sh                         (as root; debootstrap is installed if missing)
#   HMB_BARE_ROOT=/tmp/bw .ci/bare-root.sh   start from a copy of an existing pristine
#                                            root instead (for trying changes locally)
#   .ci/bare-root.sh --commands              print the two commands, run nothing
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
mirror=http://deb.debian.org/debian

# The README's set-up block N: the fenced block after its marker line.
readme_block() {
	awk -v n="$1" '
		index($0, "<!-- set-up command " n ":") == 1 { marked = 1; next }
		marked && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$2"
}
if [ "${1:-}" = --commands ]; then
	readme_block 1 "$repo/README.md"
	readme_block 2 "$repo/README.md"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "bare-root: must run as root (debootstrap, chroot, mount)" >&2; exit 2; }

# Stage lines go to fd 3, the script's stdout, even from a trap that interrupts a
# command whose output is silenced.
exec 3>&1
t_start=$(date +%s)
stage_start=$t_start
stage() {
	local now
	now=$(date +%s)
	[ -z "${stage_name:-}" ] || echo "-- $stage_name: $((now - stage_start)) s" >&3
	stage_name=$1
	stage_start=$now
	[ -z "$1" ] || echo "== $1" >&3
}

work=$(mktemp -d "${TMPDIR:-/var/tmp}/hmb-bare.XXXXXX")
root=$work/root
mounts=()

cleanup() {
	local i m p left
	# Whatever still runs in the root (the command interrupted) ends first.
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" != "$root" ] || kill -KILL "${p#/proc/}" 2>/dev/null || true
	done
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=${mounts[i]}
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done
	left=$(awk -v w="$work/" 'index($2 "/", w) == 1 { print $2 }' /proc/self/mounts)
	if [ -n "$left" ]; then
		echo "bare-root: still mounted, $work left in place: $left" >&3
		return
	fi
	rm -rf --one-file-system "$work"
}
# On every exit: the time of the stage that was running, the total, then cleanup.
finish() {
	local rc=$?
	stage ""
	echo "bare-root: $(($(date +%s) - t_start)) s in all (exit $rc)" >&3
	cleanup
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# mount [OPTIONS...] TARGET: remembered, so that cleanup takes it down.
mnt() {
	mount "$@"
	mounts+=("${!#}")
}

# Run a command line in the root, in the clone, with a login-like environment.
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		bash -c "cd /root/hipmembench && $1"
}

if [ -n "${HMB_BARE_ROOT:-}" ]; then
	stage "root: a copy of $HMB_BARE_ROOT"
	[ -x "$HMB_BARE_ROOT/usr/bin/apt-get" ] || { echo "bare-root: $HMB_BARE_ROOT is not a Debian root" >&2; exit 2; }
	cp -a "$HMB_BARE_ROOT" "$root"
else
	stage "root: debootstrap --variant=minbase bookworm"
	if ! command -v debootstrap >/dev/null; then
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
	fi
	debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$work/debootstrap.log"; echo "bare-root: debootstrap failed" >&2; exit 1; }
fi

stage "root: git and ca-certificates, the CUDA toolkit, the clone"
mnt -t proc proc "$root/proc"
mnt -t sysfs -o ro sysfs "$root/sys"
mnt -t tmpfs tmpfs "$root/dev/shm"
mnt -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# Plain bookworm: its Release has no Valid-Until, so no snapshot options are needed.
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
in_root_apt() { chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }
cd /
in_root_apt update -qq
in_root_apt install -y -qq --no-install-recommends git ca-certificates >/dev/null
if [ -d /usr/local/cuda ]; then
	mkdir -p "$root/usr/local/cuda"
	mnt --bind /usr/local/cuda "$root/usr/local/cuda"
	mount -o remount,bind,ro "$root/usr/local/cuda"
fi
rev=$(git -C "$repo" rev-parse HEAD)
git clone --quiet "$repo" "$root/root/hipmembench"
git -C "$root/root/hipmembench" -c advice.detachedHead=false checkout --quiet "$rev"

first=$(readme_block 1 "$root/root/hipmembench/README.md")
second=$(readme_block 2 "$root/root/hipmembench/README.md")
[ -n "$first" ] && [ -n "$second" ] ||
	{ echo "bare-root: the README's set-up blocks (<!-- set-up command 1/2: -->) are missing" >&2; exit 1; }

stage "the README's first command: $first"
rc=0
in_root "$first" 2>&1 | tee "$work/first.log" || rc=${PIPESTATUS[0]}
last=$(tail -n 1 "$work/first.log")
# The root has no GPU device: `all` must say so in one line, exit 3.
if [ "$rc" -ne 3 ] || [[ $last != "hipmembench: no GPU found: "* ]]; then
	echo "bare-root: the README's first command ended with exit $rc, not 'no GPU found' (exit 3):" \
		"the README misses a step" >&2
	exit 1
fi

stage "the README's second command: $second"
rc=0
in_root "$second" || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "bare-root: the README's second command failed (exit $rc): the README misses a step" >&2
	exit 1
fi

echo "bare-root: the README's set-up works on a bare Debian 12 root"
