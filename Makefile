# Two commands on a fresh machine: `make run` starts the bot, `make test` installs and tests.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint typecheck unit bench clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c requirements.lock -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) bot.py

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy

unit: install
	$(VENV)/bin/pytest -n 2 -q

test: lint typecheck unit

bench: install
	$(PY) -m bench.engine
	$(PY) -m bench.store

clean:
	rm -rf $(VENV)
