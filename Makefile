# Two commands on a fresh machine: `make run` starts the bot, `make test` installs and tests.
#
# The virtual environment remembers which interpreter built it (.venv/.python holds its version
# and installation prefix). When PYTHON names another interpreter, the .venv is rebuilt from
# scratch. Stamps are written only after a step succeeded, so a failed install is retried
# by the next run instead of being taken for a finished one.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check -c requirements.lock
IDENTITY := import sys; print(sys.version.split()[0], sys.base_prefix)

WANT := $(shell $(PYTHON) -c '$(IDENTITY)' 2>/dev/null)
HAVE := $(shell $(PY) -c '$(IDENTITY)' 2>/dev/null)

.PHONY: install install-test run backup test lint typecheck unit bench messages messages-check clean FORCE

ifeq ($(WANT),)
$(error $(PYTHON) was not found or does not run: install Python 3.11 or newer, or set PYTHON=)
endif

ifneq ($(WANT),$(HAVE))
$(VENV)/.python: FORCE
endif

# The bare environment: a fresh venv made by $(PYTHON), removed again if making it failed.
$(VENV)/.python:
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "Cannot create $(VENV): on Debian/Ubuntu install python3-venv." >&2; exit 1; }
	$(PY) -c '$(IDENTITY)' > $@.tmp && mv $@.tmp $@

# What the bot needs to run.
$(VENV)/.runtime: $(VENV)/.python pyproject.toml requirements.lock
	rm -f $@
	$(PIP) -e .
	touch $@

# Everything: the bot's packages and the test, lint and type-check tools.
$(VENV)/.test: $(VENV)/.python pyproject.toml requirements.lock
	rm -f $@
	$(PIP) -e ".[test]"
	touch $@ $(VENV)/.runtime

install: $(VENV)/.runtime

install-test: $(VENV)/.test

run: $(VENV)/.runtime
	$(PY) bot.py

# A consistent copy of the live database: make backup [TO=path] (default: backups/bot-<UTC time>.db
# beside the database).
backup: $(VENV)/.runtime
	$(PY) bot.py backup $(TO)

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(VENV)/.test
	$(VENV)/bin/mypy

unit: $(VENV)/.test
	$(VENV)/bin/pytest -n 4 --dist worksteal -q $(PYTEST_ARGS)

test: lint typecheck unit

# The translation catalogs (locales/): `make messages` extracts the texts and merges them into
# every language's .po; `make messages-check` lists what is still untranslated and compiles
# every catalog with Babel's checks, as the bot compiles them in memory at start (the tests
# fail on either).
messages: $(VENV)/.test
	$(PY) -m tools.messages update $(DOMAINS)

messages-check: $(VENV)/.test
	$(PY) -m tools.messages check $(DOMAINS)

bench: $(VENV)/.test
	$(PY) -m bench.engine
	$(PY) -m bench.views
	$(PY) -m bench.store
	$(PY) -m bench.processes

clean:
	rm -rf $(VENV)

FORCE:
