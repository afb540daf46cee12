# Photo Finish: one command to run, one to test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: install test lint typecheck unit bench tournament clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy

unit: install
	$(PY) -m pytest -n 2

test: lint typecheck unit

bench: install
	$(PY) -m bench.engines

tournament: install
	$(PY) -m bench.tournament

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis
