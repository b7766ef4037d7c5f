# Everyday targets. `make test` is the README's test command and what CI runs.
PYTHON ?= python3
VENV ?= .venv-test
DEV ?= .venv
PYTEST_ARGS ?=

.PHONY: help demo build debug test-env test test-sdist test-ray test-openspiel test-web wheels docs bench \
	bench-smoke lint typecheck annotate clean fuzz fuzz-setup sanitize

SDIST_VENV ?= .venv-sdist
# make fuzz: seconds per harness, the harnesses (tests/fuzz/fuzz_<name>.py), where the
# corpus grows and crashing inputs are written (the seed corpus in the checkout is read,
# never written), more libFuzzer flags (-max_len=N ...).  make -j2 fuzz runs two
# harnesses at once; make -k fuzz runs every harness even after one has failed.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= state_from_dict parse_action apply replay cli
FUZZ_OUT ?= build/fuzz
FUZZ_FLAGS ?=
# make sanitize: the debug build with AddressSanitizer and UBSan, in a venv of its own.
# libstdc++ is preloaded with libasan so that ASan finds the C++ runtime at start-up (a
# C++ exception thrown by an extension, matplotlib's ft2font, trips ASan otherwise), and
# pytest captures sys.stderr only, so that a sanitizer's report is printed, not lost; an
# allocation too big for memory returns NULL, as it does without ASan, so that the tests
# of refused impossible allocations run here too.
SANITIZE_VENV ?= .venv-sanitize
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer
SANITIZE_ENV = LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libstdc++.so)" \
	ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

demo:  ## install boardcore into .venv and run the main job
	$(PYTHON) -m venv $(DEV) && $(DEV)/bin/pip install -q . && \
	$(DEV)/bin/boardcore simulate just4fun --players 4 --games 100000 --seed 1

build:  ## editable dev install into .venv, then rebuild changed engines in place
	test -x $(DEV)/bin/python || $(PYTHON) -m venv $(DEV)
	$(DEV)/bin/pip install -q -U pip setuptools cython numpy pytest pytest-benchmark hypothesis mypy ruff cython-lint
	$(DEV)/bin/pip install -q --no-build-isolation -e .
	$(DEV)/bin/python setup.py -q build_ext --inplace

debug:  ## like build, with bounds checks and assertions on (BOARDCORE_DEBUG=1)
	CYTHON_FORCE_REGEN=1 BOARDCORE_DEBUG=1 $(DEV)/bin/python setup.py -q build_ext --inplace --force

test-env:  ## sdist -> wheel (no sources in it) -> fresh $(VENV) with the wheel and its test extras
	rm -rf dist
	$(PYTHON) -m venv --clear $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip build
	$(VENV)/bin/python -m build --outdir dist .
	$(VENV)/bin/python -c "import sys, zipfile, glob; \
	names = zipfile.ZipFile(glob.glob('dist/*.whl')[0]).namelist(); \
	bad = [n for n in names if n.endswith(('.pyx', '.pxd', '.pxi', '.c'))]; \
	sys.exit(f'sources in the wheel: {bad}' if bad else 0)"
	$(VENV)/bin/python -m pip install -q "$$(ls dist/boardcore-*.whl)[test]"

test: test-env  ## test-env, then every test against the installed wheel
	$(VENV)/bin/python -m pytest -p no:cacheprovider $(PYTEST_ARGS)

docs:  ## the site (Sphinx + furo) into docs/_build/html from the wheel test-env installs; offline, -W
	test -x $(VENV)/bin/python && ls dist/boardcore-*.whl >/dev/null 2>&1 || $(MAKE) test-env
	$(VENV)/bin/python -m pip install -q "$$(ls dist/boardcore-*.whl)[docs]"
	rm -rf docs/_build
	cd / && $(abspath $(VENV))/bin/python -m sphinx -E -W --keep-going -q -b html \
		$(abspath docs) $(abspath docs/_build/html)
	@echo "the site: docs/_build/html/index.html"

test-sdist:  ## the sdist alone: pip install boardcore-*.tar.gz[test], then pytest in the unpacked sdist
	test -f "$$(ls dist/boardcore-*.tar.gz 2>/dev/null | head -1)" || $(PYTHON) -m build --sdist --outdir dist .
	rm -rf build/sdist-test && mkdir -p build/sdist-test
	tar -xzf "$$(ls dist/boardcore-*.tar.gz)" -C build/sdist-test
	$(PYTHON) -m venv --clear $(SDIST_VENV)
	$(SDIST_VENV)/bin/python -m pip install -q --upgrade pip
	$(SDIST_VENV)/bin/python -m pip install -q "$$(ls dist/boardcore-*.tar.gz)[test]"
	cd build/sdist-test/boardcore-* && $(abspath $(SDIST_VENV))/bin/python -m pytest -p no:cacheprovider $(PYTEST_ARGS)

test-ray:  ## after test-env: the Ray tests on a real two-node Ray cluster, started and stopped here (adds boardcore[ray] to $(VENV))
	test -x $(VENV)/bin/python || $(MAKE) test-env
	$(VENV)/bin/python -m pip install -q "$$(ls dist/boardcore-*.whl)[ray]"
	$(VENV)/bin/python -m tests.ray_cluster -- \
		$(VENV)/bin/python -m pytest -p no:cacheprovider tests/test_ray.py $(PYTEST_ARGS)

test-openspiel:  ## after test-env: the games inside OpenSpiel (adds boardcore[openspiel] to $(VENV))
	test -x $(VENV)/bin/python || $(MAKE) test-env
	$(VENV)/bin/python -m pip install -q "$$(ls dist/boardcore-*.whl)[openspiel]"
	$(VENV)/bin/python -m pytest -p no:cacheprovider tests/test_openspiel.py tests/test_docs.py \
		-k "openspiel" $(PYTEST_ARGS)

# make test-web: Debian's chromium and chromedriver (apt-get, as root or through sudo,
# where missing), then the browser tests against the wheel, a missing browser a failure.
SUDO = $(if $(filter 0,$(shell id -u)),,sudo)
SCREENSHOTS ?= build/web-screenshots

test-web:  ## after test-env: the page in headless chromium (installs chromium, chromium-driver, selenium)
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; }
	test -x $(VENV)/bin/python && ls dist/boardcore-*.whl >/dev/null 2>&1 || $(MAKE) test-env
	$(VENV)/bin/python -m pip install -q "$$(ls dist/boardcore-*.whl)[web]" "selenium>=4.20"
	BOARDCORE_BROWSER_TESTS=1 BOARDCORE_SCREENSHOTS=$(abspath $(SCREENSHOTS)) \
		$(VENV)/bin/python -m pytest -p no:cacheprovider tests/test_web_browser.py $(PYTEST_ARGS)
	@echo "screenshots: $(SCREENSHOTS)"

wheels:  ## a manylinux wheel for every Python >= 3.10 found here, each tested in a fresh venv; a table
	$(PYTHON) .ci/wheels.py $(PYTEST_ARGS)

# The wheel workflow's test step as cibuildwheel runs it: the wheel in dist/ (make
# test-env builds it) in a fresh venv with exactly [tool.cibuildwheel] test-requires, then
# exactly test-command, both read from pyproject.toml (.ci/wheel_step.py).
.PHONY: test-wheel-step
WHEEL_STEP_VENV ?= .venv-wheel-step
test-wheel-step:  ## the workflow's wheel test: only test-requires, test-command from a temp dir
	ls dist/boardcore-*.whl >/dev/null 2>&1 || $(MAKE) test-env
	$(PYTHON) .ci/wheel_step.py "$$(ls dist/boardcore-*.whl)" $(WHEEL_STEP_VENV)

# Windows x86-64 under Wine (.ci/windows.py): the nine modules cross-compiled by
# mingw-w64 against the official embeddable CPython 3.13, a cp313-win_amd64 wheel made of
# them and dist/'s wheel, installed by pip under Wine, the whole suite run there.
.PHONY: test-windows
WINDOWS_VENV ?= .venv-windows
test-windows:  ## a win_amd64 wheel (mingw-w64), installed and fully tested under Wine
	ls dist/boardcore-*.whl >/dev/null 2>&1 || $(MAKE) test-env
	$(PYTHON) -m venv $(WINDOWS_VENV)
	$(WINDOWS_VENV)/bin/python -m pip install -q "cython>=3.1" setuptools
	$(WINDOWS_VENV)/bin/python .ci/windows.py "$$(ls dist/boardcore-*.whl)" $(PYTEST_ARGS)

# The engines' portable C paths, which x86-64 builds otherwise never compile (each SSE2
# block has one; aarch64 and other targets compile only those): BOARDCORE_NO_SIMD=1, then
# the tests that pin behaviour down (golden, differential, observations, identity).  The
# SSE2 build's just4fun and _vector use pmovmskb: the portable one must not.
.PHONY: test-nosimd
NOSIMD_VENV ?= .venv-nosimd
test-nosimd:  ## the SIMD-off build (BOARDCORE_NO_SIMD=1): golden, differential, observation tests
	test -f "$$(ls dist/boardcore-*.tar.gz 2>/dev/null | head -1)" || $(PYTHON) -m build --sdist --outdir dist .
	$(PYTHON) -m venv --clear $(NOSIMD_VENV)
	$(NOSIMD_VENV)/bin/python -m pip install -q --upgrade pip
	BOARDCORE_NO_SIMD=1 $(NOSIMD_VENV)/bin/python -m pip install -q --no-cache-dir \
		"$$(ls dist/boardcore-*.tar.gz)" pytest hypothesis
	! objdump -d $(NOSIMD_VENV)/lib/python*/site-packages/boardcore/_engine/*.so | grep -q pmovmskb
	$(NOSIMD_VENV)/bin/python -m pytest -p no:cacheprovider -q tests/test_golden.py \
		tests/test_differential.py tests/test_observations.py tests/test_identity.py $(PYTEST_ARGS)

# Two long proofs, not in CI (their results are recorded in docs/packaging.md): Linux
# aarch64 in an arm64 Debian root under qemu (.ci/aarch64.sh), and a free-threaded
# CPython 3.13t built here from Debian's python3.13 source (.ci/free_threaded.sh).
.PHONY: prove-aarch64 prove-free-threaded
prove-aarch64:  ## (long) arm64 Debian under qemu: build, golden/differential/identity tests
	test -f "$$(ls dist/boardcore-*.tar.gz 2>/dev/null | head -1)" || $(PYTHON) -m build --sdist --outdir dist .
	bash .ci/aarch64.sh "$$(ls dist/boardcore-*.tar.gz)" $(PYTEST_ARGS)

prove-free-threaded:  ## (long) CPython 3.13t built here: whole suite PYTHON_GIL=0, hammer, speed-ups
	test -f "$$(ls dist/boardcore-*.tar.gz 2>/dev/null | head -1)" || $(PYTHON) -m build --sdist --outdir dist .
	bash .ci/free_threaded.sh "$$(ls dist/boardcore-*.tar.gz)" $(PYTEST_ARGS)

bench:  ## the benchmarks with the peers (bench extras), ratios on the last lines
	$(DEV)/bin/pip install -q "open-spiel==2.0.2" rlcard "gymnasium>=1.2.2,<1.5" \
		"pettingzoo>=1.25,<1.28" pygame "pgx>=2.4" "jax[cpu]>=0.4.30"
	$(DEV)/bin/python -m pytest bench --benchmark-only --benchmark-autosave

bench-smoke:  ## every benchmark body once, no timing (what CI runs)
	$(VENV)/bin/python -m pip install -q pytest-benchmark
	$(VENV)/bin/python -m pytest bench --benchmark-disable -q -p no:cacheprovider

lint:  ## ruff (pydocstyle, import order, ...) on Python, cython-lint on the engines
	$(DEV)/bin/python -m pip install -q ruff cython-lint
	$(DEV)/bin/python -m ruff check src tests bench
	PATH=$(abspath $(DEV))/bin:$$PATH cython-lint src/engine

typecheck:  ## mypy --strict on the installed package: its facade and its stubs
	$(DEV)/bin/python -m pip install -q mypy typing_extensions
	cd / && $(abspath $(DEV))/bin/python -m mypy --strict --cache-dir $(abspath .mypy_cache) -p boardcore

annotate:  ## cython -a HTML for every engine (look for yellow in the hot loops)
	cd src/engine && for f in *.pyx; do CYTHON_FORCE_REGEN=1 ../../$(DEV)/bin/cython -a -3 -I . $$f -o /tmp/$${f%.pyx}.c; done
	@echo "annotations: /tmp/*.html"

fuzz: $(addprefix fuzz-,$(FUZZ_TARGETS))  ## every harness for FUZZ_SECONDS (default 600); crashes in $(FUZZ_OUT)/crashes

fuzz-setup:
	$(DEV)/bin/python -m pip install -q "atheris>=2.3"

fuzz-%: fuzz-setup  ## one harness (fuzz-cli, ...) for FUZZ_SECONDS; a crash: its input, and how to rerun it
	mkdir -p $(FUZZ_OUT)/corpus/$* $(FUZZ_OUT)/crashes
	@echo "fuzz_$*: $(FUZZ_SECONDS) s, log in $(FUZZ_OUT)/$*.log"
	@if $(DEV)/bin/python -m tests.fuzz.fuzz_$* -max_total_time=$(FUZZ_SECONDS) -timeout=60 $(FUZZ_FLAGS) \
		-print_final_stats=1 -artifact_prefix=$(abspath $(FUZZ_OUT))/crashes/$*- \
		$(FUZZ_OUT)/corpus/$* tests/fuzz/corpus/$* > $(FUZZ_OUT)/$*.log 2>&1; then \
		grep -h "stat::number_of_executed_units" $(FUZZ_OUT)/$*.log | sed 's/^/fuzz_$*: /'; \
	else \
		tail -n 40 $(FUZZ_OUT)/$*.log; \
		for f in $(FUZZ_OUT)/crashes/$*-*; do test -f "$$f" || continue; \
			echo "fuzz_$*: reproducing input $$f (rerun: $(DEV)/bin/python -m tests.fuzz.fuzz_$* $$f):"; \
			$(DEV)/bin/python -c "import sys; print(repr(open(sys.argv[1], 'rb').read()[:4000]))" "$$f"; \
		done; exit 1; \
	fi

sanitize:  ## the debug build under ASan+UBSan in $(SANITIZE_VENV): the whole suite, then the thread hammer
	$(PYTHON) -m venv --clear $(SANITIZE_VENV)
	$(SANITIZE_VENV)/bin/python -m pip install -q --upgrade pip build
	test -f "$$(ls dist/boardcore-*.tar.gz 2>/dev/null | head -1)" || \
		$(SANITIZE_VENV)/bin/python -m build --sdist --outdir dist .
	BOARDCORE_DEBUG=1 CFLAGS="$(SANITIZE_FLAGS)" LDFLAGS="$(SANITIZE_FLAGS)" \
		$(SANITIZE_VENV)/bin/python -m pip install -q --no-cache-dir "$$(ls dist/boardcore-*.tar.gz)[test]"
	for f in $(SANITIZE_VENV)/lib/python*/site-packages/boardcore/_engine/*.so; do \
		nm -D "$$f" | grep -q __asan_init || { echo "$$f: built without ASan"; exit 1; }; done
	$(SANITIZE_ENV) $(SANITIZE_VENV)/bin/python -m pytest -p no:cacheprovider --capture=sys $(PYTEST_ARGS)
	$(SANITIZE_ENV) $(SANITIZE_VENV)/bin/python -m pytest -p no:cacheprovider --capture=sys -q tests/test_threads.py

clean:  ## remove build output
	rm -rf build dist wheelhouse *.egg-info src/engine/*.c src/engine/*.so src/engine/*.html \
		.pytest_cache .benchmarks docs/_build docs/_generated
