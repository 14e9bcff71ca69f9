# Everything a fresh clone needs: `make test` and `make report` build .venv themselves.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test test-slow lint bench report lab clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -n 2

test-slow: $(STAMP)
	$(PY) -m pytest -q -n 2 -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check kalooki_sim tests notebooks

bench: $(STAMP)
	$(PY) -m kalooki_sim.bench

# Executes notebooks/*.py at the default sizes and writes reports/ (index.html, pages, PNG, CSV).
report: $(STAMP)
	$(PY) -m kalooki_sim.report

# Interactive notebooks: jupyterlab on top of the test environment.
lab: $(STAMP)
	$(PY) -m pip install --quiet -e '.[notebooks]'
	$(VENV)/bin/jupytext --sync notebooks/*.py
	$(VENV)/bin/jupyter lab notebooks

clean:
	rm -rf $(VENV) build *.egg-info
