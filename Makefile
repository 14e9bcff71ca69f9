# Everything a fresh clone needs: `make test` and `make report` build .venv themselves.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NB_STAMP := $(VENV)/.installed-notebooks

.PHONY: test test-slow lint bench report clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(NB_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,notebooks]'
	touch $(NB_STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -n 2

test-slow: $(STAMP)
	$(PY) -m pytest -q -n 2 -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check kalooki_sim tests notebooks

bench: $(STAMP)
	$(PY) -m kalooki_sim.bench

# The analysis layer and notebooks (issue 4) are not built yet: say so instead of a traceback.
report: $(NB_STAMP)
	@test -f kalooki_sim/report.py || { echo "make report: the analysis notebooks are not written yet (issue 4)"; exit 2; }
	$(PY) -m kalooki_sim.report

clean:
	rm -rf $(VENV) build *.egg-info
