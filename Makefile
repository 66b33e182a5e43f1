# The two commands a newcomer needs: `make run` and `make test`.
# Both create .venv and install exactly what requirements-test.lock pins (versions and hashes), on a
# fresh machine. After changing a version in pyproject.toml, `make lock` writes both lock files again.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := requirements-test.lock
# Test processes of `make test` (pytest-xdist): one per core by default.
TEST_WORKERS ?= auto
LOCK_VENV := .venv-lock
PIP_COMPILE := $(LOCK_VENV)/bin/pip-compile
COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(PIP_COMPILE) --quiet --generate-hashes --strip-extras \
	--no-emit-index-url --no-emit-find-links $(LOCK_FLAGS)

.PHONY: run test lint format bench clean regen-golden lock

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(LOCK) | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	touch $(STAMP)

run: $(STAMP)
	$(PY) bot.py

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n $(TEST_WORKERS) --dist load

lint: $(STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# Regenerate golden images and transcripts on purpose, then review the diff.
regen-golden: $(STAMP)
	$(PY) -m tests.render.palette_sources
	REGEN_GOLDEN=1 $(PY) -m pytest tests -k golden

bench: $(STAMP)
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
