# The two commands a newcomer needs: `make run` and `make test`.
# Both create .venv and install what pyproject.toml pins, on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench clean regen-golden

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) tools/deps.py test | $(PY) -m pip install --quiet -r /dev/stdin
	touch $(STAMP)

run: $(STAMP)
	$(PY) bot.py

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# Regenerate golden images and transcripts on purpose, then review the diff.
regen-golden: $(STAMP)
	REGEN_GOLDEN=1 $(PY) -m pytest tests -k golden

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
