# A fresh clone needs two commands (see README):
#   make demo   installs into .venv/ and runs the tour, the main job, on this machine
#   make test   installs everything the tests need and runs every test (CI runs this)
# Instructors: make grade SUBMISSIONS=dir, make slides, make exercises, make compat,
#   make retarget REPO=owner/name REF=branch.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
PYTEST_ARGS ?=
SUBMISSIONS ?= submissions
GRADES ?= grades
export TF_CPP_MIN_LOG_LEVEL ?= 2

.PHONY: demo test instructor grade slides exercises compat retarget colab-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Stamps make a second `make demo` or `make test` skip installs that already happened.
$(VENV)/.course-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e ".[course]"
	touch $@

# The instructor tooling is its own package (instructor/), never imported by tfdist_edu.
$(VENV)/.instructor-installed: instructor/pyproject.toml $(VENV)/.course-installed
	$(PIP) -e ./instructor
	touch $@

$(VENV)/.test-installed: pyproject.toml scripts/install_slide_deps.sh $(VENV)/.instructor-installed
	$(PIP) -e ".[course,test,legacy]"
	scripts/install_slide_deps.sh
	touch $@

demo: $(VENV)/.course-installed
	$(BIN)/tfdist-edu tour --out tour-report

# One pytest run: the unit tests (test_slides builds and opens every deck), then every lesson
# and solution notebook under nbval,
# in fast mode and offline (synthetic data, labelled as such).
test: $(VENV)/.test-installed
	TFDIST_EDU_FAST=1 $(BIN)/python -m pytest tests notebooks solutions --nbval-lax $(PYTEST_ARGS)

instructor: $(VENV)/.instructor-installed

grade: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor grade $(SUBMISSIONS) --out $(GRADES)

slides: $(VENV)/.test-installed
	$(BIN)/tfdist-instructor slides --out build/slides

exercises: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor exercises

compat: $(VENV)/.test-installed
	$(BIN)/tfdist-instructor compat --write docs/compatibility.md

# Point every badge, install and clone cell at a fork and branch. Standard library only, so it
# runs before anything is installed.
retarget:
	PYTHONPATH=instructor $(PYTHON) -m tfdist_instructor.retarget --repo "$(REPO)" --ref "$(REF)"

# Every lesson and solution notebook, fast mode, on Colab's package versions in .venv-colab/
# (its own stamps; see scripts/colab_stack.sh).
colab-test:
	PYTHON=$(PYTHON) scripts/colab_stack.sh $(PYTEST_ARGS)

clean:
	rm -rf build tour-report
