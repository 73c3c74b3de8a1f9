# Arbiter: the two commands are `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8000
PYTEST_ARGS ?=
# two pytest-xdist workers (this machine has two cores); tests whose servers are
# module-wide carry an xdist_group mark and stay on one worker
TEST_WORKERS ?= 2
# the tests start the service's processes hundreds of times: each imports the app, which
# compiles ~300 modules when no bytecode is cached (about 1 s of CPU a process), so the
# test targets write bytecode even where the environment says not to
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

.PHONY: install run test check lint soak soak-multihost bench openapi docs clean

# the client package for scripts and bots (clients/python, its own pyproject.toml) goes into
# the same venv, editable: `arbiter play` plays through it and tests/clients/ test it
$(BIN)/.installed: pyproject.toml clients/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' -e ./clients/python
	touch $@

install: $(BIN)/.installed

## Start web + Celery worker + beat on the embedded default (SQLite, filesystem broker).
run: install
	$(BIN)/arbiter db-upgrade
	@echo "Arbiter on http://$${HOST:-127.0.0.1}:$(PORT) (HOST=0.0.0.0 for other machines; API under /v1, contract at /openapi.json)"
	BASE_URL="$${BASE_URL:-http://127.0.0.1:$(PORT)}" PATH="$(CURDIR)/$(BIN):$$PATH" \
		$(BIN)/honcho --procfile Procfile start --port $(PORT)

## Lint and format check (ruff, configured in pyproject.toml); the layers (import-linter,
## contracts in pyproject.toml: contexts import no channel, in layer order; engines import
## nothing of the service); the client package is
## type-checked (mypy --strict, configured in clients/python/pyproject.toml); the docs
## build with no warning (mkdocs build --strict).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo --no-cache
	$(BIN)/mypy --config-file clients/python/pyproject.toml clients/python/arbiter_client clients/python/examples
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $$(mktemp -d)

## Serve the documentation (docs/, MkDocs) on http://127.0.0.1:8001, rebuilt on each change.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

## Install, lint, and run every test (integration tests skip without ARBITER_TEST_* URLs).
test: lint
	$(PYTEST) -n $(TEST_WORKERS) --dist loadgroup -m "not soak" --durations=60 $(PYTEST_ARGS)

## The fast tier while you work: lint, then engines, service and API tests on SQLite
## (no whole stacks, real workers or fuzzing; fewer random playouts; tests marked slow run
## in make test only). The rule is under two minutes; docs/getting-started.md has the last
## measured figure and what it leaves to make test.
check: lint
	env -u ARBITER_TEST_POSTGRES_URL -u ARBITER_TEST_REDIS_URL -u ARBITER_REQUIRE_SERVICES \
		ARBITER_PLAYOUTS=$${ARBITER_PLAYOUTS:-40} ARBITER_API_PLAYOUTS=$${ARBITER_API_PLAYOUTS:-1} \
		$(PYTEST) -n $(TEST_WORKERS) \
		--dist loadgroup -q -m "not stack and not slow and not soak" $(PYTEST_ARGS)

## The long random playouts: thousands of games per engine, then games played through the
## API checking every response and mail for another seat's secrets, then the fault tests
## with full-length outages and 10 games each (all six; make test runs two), then the
## whole-stack tests make test leaves out to stay under fifteen minutes (the other backend
## of a stack, every engine in the browser, the bots' strength).
soak: install
	ARBITER_PLAYOUTS=$${ARBITER_PLAYOUTS:-10000} $(BIN)/python -m pytest tests/engines -q -k "playout or contract" $(PYTEST_ARGS)
	ARBITER_API_PLAYOUTS=$${ARBITER_API_PLAYOUTS:-1000} $(BIN)/python -m pytest tests/arbiter/operating/test_secrets.py -q $(PYTEST_ARGS)
	ARBITER_FAULT_PROFILE=soak $(BIN)/python -m pytest tests/e2e/test_faults.py -q -s $(PYTEST_ARGS)
	ARBITER_FUZZ_EXAMPLES=$${ARBITER_FUZZ_EXAMPLES:-300} $(BIN)/python -m pytest tests/contract/test_schemathesis.py -q -s $(PYTEST_ARGS)
	$(BIN)/python -m pytest tests/tournaments -q -s -m soak $(PYTEST_ARGS)
	$(BIN)/python -m pytest tests/arbiter/bots -q -m soak $(PYTEST_ARGS)
	$(BIN)/python -m pytest tests/e2e -q -m soak --ignore=tests/e2e/test_faults.py $(PYTEST_ARGS)

## Benchmarks: print figures (not tests). The bench extra brings gunicorn (the bare stack of
## ../shared/bench/side_by_side.sh) and py-spy.
bench: install
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run_all.py

## Regenerate openapi.yaml from the code.
openapi: install
	$(BIN)/flask --app arbiter openapi write --format=yaml openapi.yaml

clean:
	rm -rf $(VENV) instance .pytest_cache

## The several-machines deployment on network namespaces (as root; haproxy installed:
## `apt-get install -y haproxy`): games through the balancer, a worker host that vanishes
## inside a write transaction, a web host killed; prints its figures (a few minutes).
soak-multihost: install
	$(BIN)/python -m tests.multihost.soak
