# Photo Finish: one command to run, one to test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LOCK := requirements/dev.lock
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml $(LOCK) | cksum | cut -d' ' -f1)

PROTOS := $(shell find proto -name '*.proto' | sort)
WEB := clients/web
WEB_STAMP := $(WEB)/node_modules/.installed-$(shell cksum $(WEB)/package-lock.json | cut -d' ' -f1)
WEB_PROTOS := $(shell find $(WEB)/proto -name '*.proto' | sort)

.PHONY: install lock proto proto-check web doctor run test soak checks lint typecheck unit browser load bench fuzz \
	loadtest tournament clean deploy-test deploy-images deploy-down

# What building the lock's source-only packages takes (PyICU: g++, Python.h, pkg-config and
# ICU's headers; the doctor's build stage installs the missing ones with apt-get); then every
# package, direct and indirect, from the lock with its hashes (pip, setuptools and uv too);
# then the project alone, built by the locked setuptools, so nothing unhashed comes in.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m tools.doctor build
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/build.lock
	$(PY) -m pip install --quiet --require-hashes --no-build-isolation -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

# The locks, after a change to pyproject.toml or requirements/build.in: dev.lock (make
# install) and runtime.lock (the Dockerfile, no dev extra; its versions taken from dev.lock),
# hashes of every file PyPI has for each version, resolved for CPython 3.11 on x86-64 Linux
# (the image's). A version already locked is kept; to move one:
#   make lock UPGRADE='--upgrade-package NAME'   (or UPGRADE=--upgrade for all)
UV_COMPILE = UV_CUSTOM_COMPILE_COMMAND='make lock' $(VENV)/bin/uv pip compile --quiet \
	--generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
	pyproject.toml requirements/build.in
# build.lock: the build tools alone (pip, setuptools), installed first; every source-only
# package of the locks (PyICU) is then built with them, --no-build-isolation, so pip never
# fetches a build tool of its own, unhashed.
UV_COMPILE_BUILD = UV_CUSTOM_COMPILE_COMMAND='make lock' $(VENV)/bin/uv pip compile --quiet \
	--generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
	requirements/build.in

lock: install
	$(UV_COMPILE) $(UPGRADE) --extra dev -o $(LOCK)
	$(UV_COMPILE) -c $(LOCK) -o requirements/runtime.lock
	$(UV_COMPILE_BUILD) -c $(LOCK) -o requirements/build.lock

# Code generated from proto/ (committed; proto-check keeps it honest): Python into
# photofinish/ (its README.md, copied from proto/GENERATED.md, says so), and the browser
# client's TypeScript into clients/web/src/gen, so that
# building the page needs Node.js alone (the image's web stage installs no Python packages).
GEN = PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) -m grpc_tools.protoc -Iproto --python_out=$(1) --grpc_python_out=$(1) \
	--mypy_out=$(1) --mypy_grpc_out=$(1) $(PROTOS) && \
	find $(1)/photofinish -type d -exec touch {}/__init__.py \; && \
	cp proto/GENERATED.md $(1)/photofinish/README.md
WEB_GEN = mkdir -p $(1) && $(PY) -m grpc_tools.protoc -Iproto -I$(WEB)/proto \
	--plugin=protoc-gen-es=$(WEB)/node_modules/.bin/protoc-gen-es \
	--es_out=$(1) --es_opt=target=ts $(PROTOS) $(WEB_PROTOS)

proto: install $(WEB_STAMP)
	rm -rf photofinish $(WEB)/src/gen
	@( $(call GEN,.) ) >/dev/null 2>&1 || ( $(call GEN,.) )
	$(call WEB_GEN,$(WEB)/src/gen)

proto-check: install $(WEB_STAMP)
	@tmp=$$(mktemp -d) && ( $(call GEN,$$tmp) ) >/dev/null 2>&1 && $(call WEB_GEN,$$tmp/web) && \
	if diff -r -x __pycache__ $$tmp/photofinish photofinish >/dev/null \
		&& diff -r $$tmp/web $(WEB)/src/gen >/dev/null; then \
		echo "generated code is up to date"; rm -rf $$tmp; \
	else echo "photofinish/ or $(WEB)/src/gen is stale: run 'make proto' and commit it"; \
		rm -rf $$tmp; exit 1; fi

# The browser client (clients/web): npm ci when the lockfile changes, then the TypeScript
# (its generated part committed, see proto) type-checked and bundled into clients/web/dist
# (served at /). Node.js alone: no Python package is needed.
web: $(WEB_STAMP)
	cd $(WEB) && npm run --silent typecheck && npm run --silent bundle

$(WEB_STAMP): $(WEB)/package-lock.json
	$(PYTHON) -m tools.doctor setup
	cd $(WEB) && npm ci --no-audit --no-fund --loglevel=error
	rm -f $(WEB)/node_modules/.installed-* && touch $@

# Every tool the tests need (tools/doctor/needs.py): present, installed just now with apt-get,
# or missing with the reason. `make doctor STAGES=browser` checks one stage's; make test runs it first.
doctor:
	$(PYTHON) -m tools.doctor $(STAGES)

# Everything on this machine: nats-server, every service, bots, gateway. Ctrl-C stops all.
run: install proto web
	$(PY) -m services.stack

# Grant an account the operator role (the fair-play queue) in make run's database:
# make operator NAME=ann (NAME= and REVOKE=1 takes it away; `$(PY) -m tools.operators list`).
operator: install
	@test -n "$(NAME)" || { echo "usage: make operator NAME=<account's username> [REVOKE=1]"; exit 2; }
	PF_DATA_DIR=var $(PY) -m tools.operators $(if $(REVOKE),revoke,grant) "$(NAME)"

# ruff, then the architecture: the import contracts in pyproject.toml ([tool.importlinter]).
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

typecheck: install
	$(VENV)/bin/mypy

# The tests, in three stages: unit (everything but the browser and the load runs), browser
# (Debian's Chromium, never a test tool's own download) and load (alone, after the rest).
# --no-skip: a test that would skip, for a missing tool say, fails instead. Each stage writes
# var/test-results/STAGE.xml, which make test counts.
PYTEST = $(PY) -m pytest --no-skip --junitxml=var/test-results/$@.xml

checks: proto-check lint typecheck

# Four workers on two cores: the unit tests wait on their stacks (processes started, NATS,
# matches at a person's pace) much of the time, and two workers left the cores 43 % idle
# (13 min 10 s against 8 min 27 s with four, the same tests, docs/testing.md).
# --dist loadfile: a test file's tests run on one worker, so a module's stack (and browser)
# starts once, not once on each worker that runs one of its tests (docs/testing.md).
unit: install
	$(PYTHON) -m tools.doctor unit
	$(PYTEST) -n 4 --dist loadfile -m 'not load' --ignore=tests/web

browser: install web
	$(PYTHON) -m tools.doctor browser
	$(PYTEST) -n 2 --dist loadfile tests/web

load: install
	$(PYTEST) -m load

# Every stage in turn, timed (tools/suite.py): doctor, checks, unit, browser, load, deploy;
# the deployment's images built in the background from the end of the checks to the load.
test:
	$(PYTHON) -m tools.suite

# Flaky tests looked for: unit, browser and load RUNS times, the last BUSY with every core
# kept busy; each test that failed, with the runs it failed in (docs/testing.md).
RUNS ?= 5
BUSY ?= 2
soak: install
	$(PYTHON) -m tools.soak --runs $(RUNS) --busy $(BUSY)

bench: install
	$(PY) -m bench.engines
	# The rules process's answer to one held call, in process: its CPU per command, warm.
	$(PY) -m bench.held_calls
	# The arbitration's own work on a command, in process (the rules' taken off), warm.
	$(PY) -m bench.arbitration_path
	$(PY) -m bench.arena
	$(PY) -m bench.pairing
	$(PY) -m bench.ratings
	# Sign-ins per second one accounts process holds, and one argon2id check's cost.
	$(PY) -m bench.accounts
	# 100 matches at human pace, and the floor at the same load: CPU per command and the ratio.
	$(PY) -m bench.stack --floor
	# The fewest hops the design allows (stamp, store, judge), doing nothing, at that load.
	$(PY) -m bench.floor --matches 100 --shape design
	# Those hops with the game in the judge: real views, then views sent as changes.
	$(PY) -m bench.floor --matches 100 --shape judged
	$(PY) -m bench.floor --matches 100 --shape changes
	# Capacity: the whole stack pinned to one core, the load on the other (docs/loadtest.md).
	$(PY) -m bench.stack --matches 150 --pin --floor
	# 500 concurrent matches at a tenth of the pace: timer lateness and the log store.
	$(PY) -m bench.stack --matches 500 --spit-scale 9 --bid-scale 2.5 --seconds 30 --warmup 10

# The hostile campaign at length (a short one runs in make test): 100,000 requests.
fuzz: install
	$(PY) -m bench.hostile --requests 100000

# A tournament event under load, checked and reported (docs/loadtest.md); LOADTEST_ARGS adds flags.
loadtest: install
	$(PY) -m bench.loadtest $(LOADTEST_ARGS)

tournament: install
	$(PY) -m bench.tournament

# The deployment run for real (docs/deploy.md): images built here from Debian's packages,
# docker-compose.yml under podman-compose, a tournament under load through one gateway with
# a NATS node and an arbitration killed mid-run, Prometheus watching; all removed after.
deploy-test: install
	trap '$(PY) -m tools.deploy down' EXIT INT TERM; $(PY) -m tools.deploy test

# The images alone (reused when their inputs have not changed), and a leftover deployment removed.
deploy-images: install
	$(PY) -m tools.deploy build

deploy-down: install
	$(PY) -m tools.deploy down

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis
