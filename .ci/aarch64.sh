#!/usr/bin/env bash
# make prove-aarch64: boardcore built and tested on Linux aarch64 (arm64), emulated.
#
# An arm64 Debian 12 root made by debootstrap from Debian's packages (Python 3.11, gcc
# 12), its programs run by qemu-user-static through binfmt_misc; in it a venv with
# Cython, setuptools, numpy, pytest and hypothesis (PyPI's aarch64 wheels), boardcore
# built from the sdist, then the tests that pin behaviour down: golden playthroughs,
# the differential runs against the reference rules, observations, and the
# cross-platform identity (tests/test_identity.py).  Far too slow for CI (the build alone
# takes about 13 minutes under emulation): its results go to docs/packaging.md.
#
#   .ci/aarch64.sh SDIST [PYTEST ARGS ...]
#
# The root stays in build/aarch64/root between runs (debootstrap and the venv are done
# once); boardcore is built afresh each run.
set -euo pipefail
cd "$(dirname "$0")/.."
sdist=$(realpath "$1"); shift
work=build/aarch64
rootfs=$work/root
say() { echo "[aarch64 $SECONDS s] $*"; }

# Debian's debootstrap and qemu-user-static (binfmt-support registers the emulator).
if ! command -v debootstrap >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        debootstrap qemu-user-static binfmt-support
fi
# The kernel runs arm64 programs through qemu once binfmt_misc knows it.
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64

if [ ! -x "$rootfs/opt/venv/bin/python" ]; then
    rm -rf "$rootfs"
    mkdir -p "$work"
    say "debootstrap --arch=arm64 bookworm"
    debootstrap --arch=arm64 --variant=minbase \
        --include=python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates \
        bookworm "$rootfs" http://deb.debian.org/debian > "$work/debootstrap.log"
fi
# What the root needs from this machine: name resolution and the trusted certificates
# (pip reaches PyPI the way this machine does); /proc for Python and pip.
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
mountpoint -q "$rootfs/proc" || mount -t proc proc "$rootfs/proc"
trap 'umount "$rootfs/proc" 2>/dev/null || true' EXIT
inside() { chroot "$rootfs" /usr/bin/env -i PATH=/opt/venv/bin:/usr/bin:/bin HOME=/root \
    LANG=C.UTF-8 PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"; }

if [ ! -x "$rootfs/opt/venv/bin/python" ]; then
    say "venv: Cython, setuptools, numpy, pytest, hypothesis"
    inside /usr/bin/python3 -m venv /opt/venv
    inside pip install -q --only-binary=:all: "cython>=3.1" "setuptools>=77" numpy \
        "pytest>=8" "hypothesis>=6"
fi
inside python -c "import platform, sys; print(platform.machine(), sys.version)"
inside gcc --version | head -1

rm -rf "$rootfs/opt/src"
mkdir -p "$rootfs/opt/src"
tar -xzf "$sdist" -C "$rootfs/opt/src"
src=$(cd "$rootfs/opt/src" && ls -d boardcore-*)
say "pip install $src (Cython and gcc under emulation)"
start=$SECONDS
inside pip install -q --no-build-isolation --no-deps "/opt/src/$src"
say "built in $((SECONDS - start)) s"
start=$SECONDS
inside sh -c "cd /opt/src/$src && python -m pytest -p no:cacheprovider -q \
    tests/test_golden.py tests/test_differential.py tests/test_observations.py \
    tests/test_identity.py $*"
say "tests in $((SECONDS - start)) s"
