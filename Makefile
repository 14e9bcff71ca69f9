# Everything a fresh clone needs: `make test` and `make report` build .venv themselves.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
COMPILED := $(VENV)/.compiled
QUICK_COMPILED := $(VENV)/.compiled-quick
KERNELS := $(wildcard kalooki_sim/*/_kernels/*.py)

.PHONY: test test-slow coverage lint bench bench-suite report site lab clean venv compile compile-all study \
	serve browser

# TICK runs a command with a line every 10 s until it ends (a quiet pip install is otherwise a
# minute of silence on a new machine)
TICK = bash -c 't0=$$SECONDS; (while sleep 10; do echo "  ... $$1: $$((SECONDS - t0)) s"; done) & \
	k=$$!; shift; "$$@"; rc=$$?; kill $$k; exit $$rc' tick

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@echo "installing the packages (about a minute or two on a new machine) ..."
	@$(TICK) "installing pip" $(PY) -m pip install --quiet --upgrade pip
	@$(TICK) "installing the packages" $(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# Numba compiles each kernel once into its on-disk cache: do it here, visibly, so that no command
# afterwards sits silent compiling (again whenever a kernel source changes). `make compile` is
# the quick start's share (the engine, the advisor, the solvers); the call study and the search
# player compile on first use, or here with `make compile-all` (what the tests use).
$(COMPILED): $(STAMP) $(KERNELS)
	$(PY) -m kalooki_sim.warmup
	touch $(COMPILED) $(QUICK_COMPILED)

$(QUICK_COMPILED): $(STAMP) $(KERNELS)
	$(PY) -m kalooki_sim.warmup --quick
	touch $(QUICK_COMPILED)

compile: $(QUICK_COMPILED)

compile-all: $(COMPILED)

# the tests, and the >>> examples in the package's docstrings (numpydoc style, STUMPY runs them)
test: $(COMPILED)
	$(PY) -m pytest -q -n 2 --doctest-modules kalooki_sim tests

test-slow: $(COMPILED)
	$(PY) -m pytest -q -n 2 -m slow

# STUMPY style: the kernels run as plain Python (NUMBA_DISABLE_JIT=1) so coverage sees them.
# Their 64-bit hash wraps on purpose; numpy warns about that in pure Python, hence the filter.
coverage: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -q -n 2 -W ignore::RuntimeWarning \
		--cov=kalooki_sim --cov-report=term-missing:skip-covered

lint: $(STAMP)
	$(VENV)/bin/ruff check kalooki_sim tests notebooks

# Speed is a ratio from one run: this tree and BENCH_AGAINST (built once in .bench/ with its own
# virtualenv and Numba cache) in alternating processes; the figures go to reports/performance.csv.
# `make bench-suite` prints the finer per-kernel benchmarks of this tree alone.
BENCH_AGAINST ?= 01f82fe
bench: $(COMPILED)
	$(PY) -m kalooki_sim.bench --against $(BENCH_AGAINST)

bench-suite: $(COMPILED)
	$(PY) -m kalooki_sim.bench --suite

# Executes notebooks/*.py at the default sizes and writes reports/ (index.html, pages, PNG, CSV),
# then the rest of the site: guide pages, glossary, rules, API reference, performance record.
# It compiles only the kernels the notebooks use (not the searching player's): from the cache
# in seconds when `make compile` ran before.
report: $(STAMP)
	$(PY) -m kalooki_sim.warmup --without-search
	$(PY) -m kalooki_sim.report

# The call chart's study (issues 28, 49): every take and call of STUDY_DEALS deals per contract,
# branched both ways, resumable (run it again after a stop), made again round after round with
# the table following the last round's chart until its verdicts settle; the last round is then
# published where `make report` and the chart and thumb presets read it (committed:
# kalooki_sim/analysis/call_chart_stats.csv, chart_rounds.csv, kalooki_sim/engine/chart.csv,
# thumb.csv). About two hours of 2 cores.
STUDY_DEALS ?= 20000
STUDY_OUT   ?= .study/rounds
study: $(COMPILED)
	$(PY) -m kalooki_sim.analysis.chart_rounds --deals $(STUDY_DEALS) --out $(STUDY_OUT) \
		--write kalooki_sim/analysis/chart_rounds.csv --publish

# The site's pages alone, from their sources (kalooki_sim/report/guide/*.md, the glossary,
# RULES.md, the docstrings, reports/performance.csv and .png), without running the notebooks
site: $(STAMP)
	$(PY) -m kalooki_sim.report.site

# Interactive notebooks: JupyterLab with jupytext, which opens the py:percent sources as
# notebooks (right-click > Open With > Notebook); edits are saved back to the .py files.
# LAB_ARGS passes options to JupyterLab, e.g. `make lab LAB_ARGS=--allow-root` as root.
LAB_ARGS ?=
lab: $(STAMP)
	$(PY) -m pip install --quiet -e '.[notebooks]'
	$(VENV)/bin/jupyter lab notebooks $(LAB_ARGS)

# The advisor, the review and the call chart in a browser (issue 52): http://127.0.0.1:8052/
# SERVE_ARGS passes options, e.g. `make serve SERVE_ARGS="--port 9000 --open"`.
SERVE_ARGS ?=
serve: $(COMPILED)
	$(VENV)/bin/kalooki serve $(SERVE_ARGS)

# Chromium and its chromedriver for the browser tests (tests/test_serve.py skips without them):
# from the system's packages where it allows (Debian/Ubuntu apt-get, as root or with sudo)
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
		echo "chromium and chromedriver are installed"; \
	elif command -v apt-get >/dev/null; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium chromium-driver; \
	else echo "install Chromium and chromedriver with this system's packages"; exit 1; fi

clean:
	rm -rf $(VENV) build *.egg-info
