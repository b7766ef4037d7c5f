#!/usr/bin/env bash
# make prove-free-threaded: boardcore on a free-threaded CPython 3.13 (3.13t), built here.
#
# The interpreter is built from the upstream tarball of Debian's python3.13 source
# package (apt-get source, from a private apt list of Debian 13's sources: the machine's
# own apt setup is not touched) with ./configure --disable-gil, against Debian 12's
# libraries.  Its venv gets Cython, setuptools, numpy, pytest and hypothesis as wheels
# only (--only-binary=:all:, cp313t wheels where they are compiled); boardcore is built
# from the sdist; then, with PYTHON_GIL=0 (a module that turned the GIL back on would
# print a RuntimeWarning, an error under the suite's settings):
#   1. the whole suite, slow tests included;
#   2. the threads hammer (tests/test_threads.py) once more;
#   3. .ci/free_threaded_speed.py: simulate(workers=2) and two threads of IS-MCTS
#      against one, on this machine's two cores.
# Far too slow for CI (the interpreter takes minutes to build): the results go to
# docs/packaging.md.
#
#   .ci/free_threaded.sh SDIST [PYTEST ARGS ...]
#
# The interpreter stays in build/free-threaded/python between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
sdist=$(realpath "$1"); shift
work=$(realpath -m build/free-threaded)
prefix=$work/python
say() { echo "[free-threaded $SECONDS s] $*"; }

if [ ! -x "$prefix/bin/python3.13t" ]; then
    # What CPython's own modules need to build here (ssl for pip, zlib, ctypes, ...).
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        build-essential xz-utils libssl-dev zlib1g-dev libffi-dev libbz2-dev liblzma-dev \
        libsqlite3-dev libreadline-dev libncurses-dev libgdbm-dev uuid-dev
    apt=$work/apt
    rm -rf "$apt" "$work/src"
    mkdir -p "$apt/lists/partial" "$work/src"
    echo "deb-src http://deb.debian.org/debian trixie main" > "$apt/sources.list"
    options=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
             -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
    apt-get "${options[@]}" update -q
    (cd "$work/src" && apt-get "${options[@]}" source --download-only -q python3.13)
    tar -xJf "$work"/src/python3.13_*.orig.tar.xz -C "$work/src"
    say "configure --disable-gil; make -j$(nproc)"
    (cd "$work"/src/Python-3.13.* && ./configure -q --disable-gil --prefix="$prefix" \
        && make -s -j"$(nproc)" && make -s altinstall) > "$work/build.log" 2>&1 \
        || { tail -40 "$work/build.log"; exit 1; }
    say "built $("$prefix/bin/python3.13t" -VV)"
fi

venv=$work/venv
rm -rf "$venv"
"$prefix/bin/python3.13t" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q --only-binary=:all: "cython>=3.1" "setuptools>=77" numpy \
    "pytest>=8" "hypothesis>=6"
"$venv/bin/python" -c "import sys, sysconfig; assert sysconfig.get_config_var('Py_GIL_DISABLED'); print(sys.version)"

rm -rf "$work/test" && mkdir -p "$work/test"
tar -xzf "$sdist" -C "$work/test"
src=$(ls -d "$work"/test/boardcore-*)
say "pip install $(basename "$src")"
"$venv/bin/python" -m pip install -q --no-build-isolation --no-deps "$src"
cd "$src"
export PYTHON_GIL=0
say "the whole suite, slow tests included, PYTHON_GIL=0"
"$venv/bin/python" -m pytest -p no:cacheprovider -q -m "" "$@"
say "the threads hammer"
"$venv/bin/python" -m pytest -p no:cacheprovider -q tests/test_threads.py tests/test_free_threading.py
say "speed-ups of a second thread"
"$venv/bin/python" "$OLDPWD/.ci/free_threaded_speed.py"
say done
