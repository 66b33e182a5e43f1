# The two commands a newcomer needs: `make run` and `make test`.
# Both create .venv and install exactly what a lock file pins (versions and hashes), on a fresh
# machine: `make run` what the bot runs on (requirements.lock, as the Docker image), `make test` that
# and the test tools (requirements-test.lock: pytest, mypy, ruff, a PostgreSQL server...), so that a
# player who only plays downloads none of them. After changing a version in pyproject.toml,
# `make lock` writes both lock files again.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_LOCK := requirements.lock
TEST_LOCK := requirements-test.lock
# One stamp per lock: each is made when its lock has been installed into .venv, and again when the
# lock changes. The test lock pins every package of the runtime one at the same version (a test holds
# the two to it), so installing it also installs what `make run` needs: its recipe touches both stamps.
# A venv made by `make run` gets the test tools added by `make test`; one made by `make test` runs the
# bot with nothing more to install.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
# Test processes of `make test` (pytest-xdist): two per core by default. About half of a test
# process's time is spent waiting (bot processes starting, servers, workers, sockets), not computing:
# a second process per core computes meanwhile.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(2 * (os.cpu_count() or 1))")
# Python writes the bytecode of what it compiles (the default), even where the environment asks it
# not to: every test worker, bot process and drawing worker of a run would otherwise compile the
# project again, and pytest rewrite every test module's asserts again (about 4 s a worker).
unexport PYTHONDONTWRITEBYTECODE
LOCK_VENV := .venv-lock
PIP_COMPILE := $(LOCK_VENV)/bin/pip-compile
COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(PIP_COMPILE) --quiet --generate-hashes --strip-extras \
	--no-emit-index-url --no-emit-find-links $(LOCK_FLAGS)

.PHONY: run test durations lint format bench clean regen-golden lock

$(PY):
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): $(RUN_LOCK) | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r $(RUN_LOCK)
	touch $(RUN_STAMP)

$(TEST_STAMP): $(TEST_LOCK) | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r $(TEST_LOCK)
	touch $(TEST_STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(PY) bot.py

# mypy runs beside the tests (it reads the sources and writes only .mypy_cache; no test runs mypy),
# its report held back until the tests are done so the two outputs do not interleave. The tests come
# longest first (tests/conftest.py) and are handed out one at a time (--maxschedchunk 1): by default
# pytest-xdist gives each worker a quarter of its share at once, which would be the longest tests
# all on the first worker.
test: $(TEST_STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	@typing=$$(mktemp); \
	$(PY) -m mypy >$$typing 2>&1 & mypy=$$!; \
	echo "$(PY) -m mypy (beside the tests)"; \
	echo "$(PY) -m pytest -n $(TEST_WORKERS) --dist load --maxschedchunk 1"; \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist load --maxschedchunk 1; tests=$$?; \
	wait $$mypy; typed=$$?; \
	cat $$typing; rm -f $$typing; \
	test $$tests -eq 0 && test $$typed -eq 0

# The recorded durations that order `make test` (longest first): after adding or speeding up long tests.
durations: $(TEST_STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist load --record-durations

lint: $(TEST_STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# Regenerate golden images and transcripts on purpose, then review the diff.
regen-golden: $(TEST_STAMP)
	$(PY) -m tests.render.palette_sources
	REGEN_GOLDEN=1 $(PY) -m pytest tests -k golden

bench: $(TEST_STAMP)
	$(PY) -m bench

# The lock files, from pyproject.toml: requirements.lock (what the bot runs on, the Docker image)
# and requirements-test.lock (that and the test tools). Pins already there are kept unless
# pyproject.toml changed them; `make lock LOCK_FLAGS=--upgrade` takes the newest of everything else.
lock: $(PIP_COMPILE)
	$(PYTHON) tools/deps.py | $(COMPILE) --output-file requirements.lock -
	$(PYTHON) tools/deps.py test | $(COMPILE) --output-file requirements-test.lock -
	sed -i 's/# via -r -$$/# via pyproject.toml/' requirements.lock requirements-test.lock

$(PIP_COMPILE):
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet pip-tools==7.6.2

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .mypy_cache .ruff_cache
