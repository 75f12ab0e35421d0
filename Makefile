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

.PHONY: install install-test run backup test check lint typecheck unit fast page page-test web bench messages messages-check clean FORCE

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
	$(VENV)/bin/pytest -n 4 --dist load --maxschedchunk 1 -q $(PYTEST_ARGS)

test: lint typecheck page-test unit

# The fast loop while working: lint, types, and every test that starts no process of its own
# (no bot, no browser, no make or Docker: see the ``process`` mark in pyproject.toml).
check: lint typecheck fast

fast: $(VENV)/.test
	$(VENV)/bin/pytest -n 2 --dist load --maxschedchunk 1 -q -m "not process" $(PYTEST_ARGS)

# The live table's page (page/, an npm project): its packages as package-lock.json pins them,
# the JSON it takes from the project (looks and catalogs: tools/page_assets.py), then the type
# check and the build into page/dist/, which the bot serves.
NPM ?= npm
HAVE_NODE := $(shell command -v node >/dev/null 2>&1 && command -v $(NPM) >/dev/null 2>&1 && echo yes)

page/node_modules/.installed: page/package.json page/package-lock.json
	rm -f $@
	cd page && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

page: $(VENV)/.runtime page/node_modules/.installed
	$(PY) -m tools.page_assets
	cd page && $(NPM) run --silent build

# The page's build and its unit tests (vitest) when Node is here; the browser tests run with
# the others in `unit` (tests/e2e/test_activity_*.py) and say there why they skip. Without
# Node this says what it skipped; REQUIRE_BROWSER=1 (CI) makes that a failure.
page-test: $(VENV)/.test
ifeq ($(HAVE_NODE),yes)
	$(MAKE) --no-print-directory page
	cd page && $(NPM) run --silent test
else
	@if [ -n "$$REQUIRE_BROWSER" ]; then echo "page: Node.js and npm are required (REQUIRE_BROWSER is set) but were not found" >&2; exit 1; fi
	@echo "page: SKIPPED: Node.js/npm not found: the table page was not built and its unit and browser tests do not run (install nodejs and npm to run them)"
endif

# The translation catalogs (locales/): `make messages` extracts the texts and merges them into
# every language's .po; `make messages-check` lists what is still untranslated and compiles
# every catalog with Babel's checks, as the bot compiles them in memory at start (the tests
# fail on either).
messages: $(VENV)/.test
	$(PY) -m tools.messages update $(DOMAINS)

messages-check: $(VENV)/.test
	$(PY) -m tools.messages check $(DOMAINS)

# A local live table without Discord: the fake Discord and a bot with its web server on, and
# the page's address for each of three players (tools/web.py). PORT=8787 by default.
web: $(VENV)/.test
	@test -f page/dist/index.html || $(MAKE) --no-print-directory page
	$(PY) -m tools.web

bench: $(VENV)/.test
	$(PY) -m bench.engine
	$(PY) -m bench.views
	$(PY) -m bench.store
	$(PY) -m bench.processes

clean:
	rm -rf $(VENV) page/node_modules page/dist page/src/generated

FORCE:
