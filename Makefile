# A fresh clone needs two commands (see README):
#   make demo   installs into .venv/ and runs the tour, the main job, on this machine
#   make test   installs everything the tests need and runs every test (CI runs this)
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
PYTEST_ARGS ?=
export TF_CPP_MIN_LOG_LEVEL ?= 2

.PHONY: demo test slides clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Stamps make a second `make demo` or `make test` skip installs that already happened.
$(VENV)/.course-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[course]"
	touch $@

$(VENV)/.test-installed: pyproject.toml scripts/install_slide_deps.sh $(VENV)/.course-installed
	$(PIP) -e ".[course,test,slides,grading,legacy]"
	scripts/install_slide_deps.sh
	touch $@

demo: $(VENV)/.course-installed
	$(BIN)/tfdist-edu tour --out tour-report

# One pytest run: the unit tests (test_slides builds and opens every deck), then every lesson
# and solution notebook under nbval,
# in fast mode and offline (synthetic data, labelled as such).
test: $(VENV)/.test-installed
	TFDIST_EDU_FAST=1 $(BIN)/python -m pytest tests notebooks solutions --nbval-lax $(PYTEST_ARGS)

slides: $(VENV)/.test-installed
	$(BIN)/tfdist-edu slides --out build/slides

clean:
	rm -rf build tour-report

# The Slurm job scripts of docs/multi-host.md on a real two-node Slurm started on this machine
# (root; installs slurm-wlm and munge first; about 3 minutes on 2 cores).
.PHONY: slurm-test
slurm-test: $(VENV)/.test-installed
	scripts/install_slurm.sh
	$(BIN)/python -m pytest tests/slurm -m slurm --durations=0 $(PYTEST_ARGS)
