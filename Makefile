# A fresh clone needs two commands (see README):
#   make demo   installs into .venv/ and runs the tour, the main job, on this machine
#   make test   installs everything the tests need and runs every test (CI runs this)
# Instructors: make grade SUBMISSIONS=dir [ROSTER=csv], make gradebook, make gradescope, make slides,
#   make handouts, make exercises, make compat, make retarget REPO=owner/name REF=branch, make outputs (after
#   make test), make release OUT=dir [REPO=owner/name REF=branch].
# Maintainers: make upstream-canary [NIGHTLY=1] (the newest TensorFlow/Keras, or the nightlies,
#   against the lessons).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
SITE_VENV := .venv-site
BIN := $(VENV)/bin
UV := .venv-uv/bin/uv
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
PYTEST_ARGS ?=
SUBMISSIONS ?= submissions
GRADES ?= grades
export TF_CPP_MIN_LOG_LEVEL ?= 2

.PHONY: demo test test-fast instructor grade gradebook gradescope slides handouts exercises compat site outputs retarget \
	release colab-test upstream-canary clean

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

# uv (from PyPI, in a venv of its own) installs the environments the tests use: it downloads
# and unpacks in parallel and resolves the same versions as pip, many times faster on two
# cores. --compile-bytecode writes the .pyc files pip writes: without them, where
# PYTHONDONTWRITEBYTECODE is set, every process would compile TensorFlow's modules at import
# (19 s of CPU instead of 5). `make demo`, a student's install, stays on pip, which honours
# every pip configuration.
$(UV):
	$(PYTHON) -m venv .venv-uv
	.venv-uv/bin/python -m pip install --quiet --disable-pip-version-check uv
	touch $@

# Everything the tests need, the instructor package included, in one resolution.
$(VENV)/.test-installed: pyproject.toml instructor/pyproject.toml scripts/install_slide_deps.sh scripts/install_grading_deps.sh scripts/install_slurm.sh scripts/install_datasets.sh $(SITE_VENV)/.installed | $(BIN)/python $(UV)
	$(UV) pip install --quiet --compile-bytecode --python $(BIN)/python -e ".[course,test,legacy,profile,jax]" -e ./instructor
	touch $(VENV)/.course-installed $(VENV)/.instructor-installed
	scripts/install_slide_deps.sh
	scripts/install_grading_deps.sh
	scripts/install_slurm.sh
	scripts/install_datasets.sh
	touch $@

# The site's builder (Jupyter Book 1's Sphinx stack) in its own environment: its pins stay
# out of the course's.
$(SITE_VENV)/.installed: instructor/site-requirements.txt | $(UV)
	$(PYTHON) -m venv $(SITE_VENV)
	$(UV) pip install --quiet --compile-bytecode --python $(SITE_VENV)/bin/python -r $<
	touch $@

# The real Fashion-MNIST when this user can install it (root or sudo, apt); otherwise one line
# says how to get it, and the tour runs on the labelled stand-in.
demo: $(VENV)/.course-installed
	scripts/install_datasets.sh --if-possible
	$(BIN)/tfdist-edu tour --out tour-report

# The installs, with the Colab stage's Debian 13 root and venv made beside them (downloads,
# mostly; apt-get first, alone). Every lesson under nbval in normal mode, as students run them,
# alone (their timings are claims): on the real Fashion-MNIST that the install stamp put in
# place, leaving executed copies in build/executed/. Then the unit tests (fast mode) in two
# runs side by side, as the unit tests leave a core idle much of the time (CI has 60 minutes):
# in the foreground the instructor tooling (its site tests build the course website from those
# copies; all grading, whose sandboxes share one process limit, and both Slurm users stay in
# this one run; the grading tests run every solution, whole, through the grader: the solutions
# claim no timing, so they do not run alone), the Slurm recipes, the tour's tests and the
# ipyparallel engines' (ipyparallel 9 here), the lessons' re-run cells and the upstream sentinels (the
# two runs then take about as long); in the background the engines' tests and every lesson
# again, fast, on Colab's Python and package versions (its ipyparallel 8.8) and the stand-ins
# (`make colab-test` adds the solutions), then the other unit tests (the local clusters among
# them), their log printed at the end. Each run prints its time, and its slowest tests; every
# test's time is in build/junit-*.xml.
FOREGROUND_TESTS := tests/instructor tests/slurm tests/tour tests/engines tests/lessons/test_rerun_cells.py tests/upstream
test:
	PYTHON=$(PYTHON) COLAB_STAGE=tools scripts/colab_stack.sh
	$(MAKE) --no-print-directory $(UV)
	scripts/beside.sh build/colab-prepare.log "$(MAKE) --no-print-directory $(VENV)/.test-installed" \
		"UV=$(UV) PYTHON=$(PYTHON) COLAB_STAGE=prepare scripts/colab_stack.sh"
	rm -rf build/executed
	TFDIST_EDU_EXECUTED_DIR=build/executed \
		$(BIN)/python -m pytest notebooks --nbval-lax --durations=25 --junitxml=build/junit-lessons.xml $(PYTEST_ARGS)
	scripts/beside.sh build/background-tests.log \
		"TFDIST_EDU_EXECUTED_DIR=build/executed $(BIN)/python -m pytest $(FOREGROUND_TESTS) --durations=30 --junitxml=build/junit-foreground.xml $(PYTEST_ARGS)" \
		"COLAB_TARGETS='tests/colab tests/engines notebooks' PYTHON=$(PYTHON) scripts/colab_stack.sh --durations=15 $(PYTEST_ARGS)" \
		"TFDIST_EDU_EXECUTED_DIR=build/executed $(BIN)/python -m pytest tests \
			$(foreach t,$(FOREGROUND_TESTS),--ignore=$(t)) --durations=30 --junitxml=build/junit-unit.xml $(PYTEST_ARGS)"

# A quick local loop: everything in fast mode (small data, fewer epochs).
test-fast: $(VENV)/.test-installed
	TFDIST_EDU_FAST=1 $(BIN)/python -m pytest tests notebooks solutions --nbval-lax $(PYTEST_ARGS)

instructor: $(VENV)/.instructor-installed

# With ROSTER=roster.csv: downloads of Canvas, Moodle, Gradescope or Colab matched to students,
# totals.csv by the exercise's policy (grading/policy/, or POLICY_DIR=folder) and HAND=hand.csv;
# SLURM=1: a job array. ONLY="s1004 s1007", REPLAY_SEEDS=1 or SEED=N, TIMEOUT=S, JOBS=N,
# EXERCISE=NN_name pass the grader's --only, --replay-seeds, --seed, --timeout, --jobs and --exercise.
grade: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor grade $(SUBMISSIONS) --out $(GRADES) $(if $(ROSTER),--roster "$(ROSTER)") \
		$(if $(POLICY_DIR),--policy-dir "$(POLICY_DIR)") $(if $(HAND),--hand "$(HAND)") $(if $(SLURM),--slurm) $(if $(ONLY),--only $(ONLY)) \
		$(if $(REPLAY_SEEDS),--replay-seeds) $(if $(SEED),--seed $(SEED)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
		$(if $(JOBS),--jobs $(JOBS)) $(if $(EXERCISE),--exercise $(EXERCISE))

# The totals as a Canvas or Moodle import file: make gradebook FORMAT=canvas ROSTER=roster.csv
# [REPORTS="report-01 report-05"] [CANVAS_ASSIGNMENT="05_ring_allreduce=4711 ..."] [ZEROS=1]
# [GRADEBOOK=file.csv]; ZEROS=1 exports 0 (not a blank) for students with no graded submission.
REPORTS ?= $(GRADES)
GRADEBOOK ?= $(firstword $(REPORTS))/$(FORMAT).csv
gradebook: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor gradebook $(REPORTS) --roster "$(ROSTER)" --format $(FORMAT) --out "$(GRADEBOOK)" \
		$(foreach a,$(CANVAS_ASSIGNMENT),--canvas-assignment $(a)) $(if $(ZEROS),--zeros-for-missing)

# A Gradescope autograder zip for one exercise: make gradescope EXERCISE=05_ring_allreduce
gradescope: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor gradescope $(EXERCISE) --out build/gradescope/$(EXERCISE).zip

slides: $(VENV)/.test-installed
	$(BIN)/tfdist-instructor slides --out build/slides

# Every deck printed to PDF, slides plus speaker notes, offline in headless Chromium (building
# the decks first when build/slides/ has none).
handouts: $(VENV)/.test-installed
	test -n "$$(ls build/slides/[0-9][0-9]_*.html 2>/dev/null)" || $(BIN)/tfdist-instructor slides --out build/slides
	$(BIN)/tfdist-instructor handouts --slides build/slides --out build/handouts

exercises: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor exercises

compat: $(VENV)/.test-installed
	$(BIN)/tfdist-instructor compat --write docs/compatibility.md

# The course website: the lessons executed in normal mode on the real Fashion-MNIST (reusing
# build/executed/ when `make test` already left it), the tour's report, the decks, the
# reference pages.
site: $(VENV)/.test-installed
	test -d build/executed/notebooks || TFDIST_EDU_EXECUTED_DIR=build/executed \
		$(BIN)/python -m pytest notebooks --nbval-lax
	test -f tour-report/report.md || $(BIN)/tfdist-edu tour --out tour-report
	test -d build/slides || $(BIN)/tfdist-instructor slides --out build/slides
	$(BIN)/tfdist-instructor site --executed build/executed --out build/site

# Store the outputs of the normal-mode run `make test` left in build/executed/ in the lessons, so
# they show results before anyone runs them (tests/lessons/test_stored_outputs.py fails when a lesson's
# code changes without this refresh), then the measured times into the instructor guide's term
# plan (tests/instructor/test_lesson_times.py fails when the guide's table is stale).
# LESSONS="04_performance 09_keras_distribution" stores just those lessons (each run alone in
# normal mode into build/executed first).
outputs: $(VENV)/.instructor-installed
	$(BIN)/tfdist-instructor outputs --executed build/executed $(foreach l,$(LESSONS),--only $(l))
	$(BIN)/python scripts/lesson_times.py --write docs/instructor-guide.md

# Point every badge, install and clone cell at a fork and branch. Standard library only, so it
# runs before anything is installed.
retarget:
	PYTHONPATH=instructor $(PYTHON) -m tfdist_instructor.retarget --repo "$(REPO)" --ref "$(REF)"

# The student copy: no solution, master, question file, rubric or instructor package, retargeted
# to REPO at REF (default: pyproject's), a git repository with one commit. Standard library and git.
release:
	@test -n "$(OUT)" || { echo "make release: give OUT=folder (new or empty)"; exit 2; }
	PYTHONPATH=instructor $(PYTHON) -m tfdist_instructor.term.release "$(OUT)" \
		$(if $(REPO),--repo "$(REPO)") $(if $(REF),--ref "$(REF)") $(if $(DECKS),--decks)

# Every lesson and solution notebook, fast mode, on Colab's Python 3.13 and package versions in a
# Debian 13 root under .colab-root/ (as root; else the 3.11 stand-in .venv-colab/; its own
# stamps; see scripts/colab_stack.sh).
colab-test: | $(UV)
	UV=$(UV) PYTHON=$(PYTHON) scripts/colab_stack.sh $(PYTEST_ARGS)

# The upstream sentinels (tests/upstream, docs/upstream.md) and every lesson, fast, against the
# newest TensorFlow and Keras on the registry, in .venv-canary/; NIGHTLY=1: against tf-nightly,
# keras-nightly and tf-keras-nightly instead (DRY_RUN=1 prints the commands). Weekly on the
# releases and nightly on the nightlies in .github/workflows/upstream-canary.yml.
NIGHTLY ?= 0
upstream-canary:
	PYTHON=$(PYTHON) NIGHTLY=$(NIGHTLY) scripts/upstream_canary.sh $(PYTEST_ARGS)

clean:
	rm -rf build tour-report

# The Slurm job scripts of docs/multi-host.md on a real two-node Slurm started on this machine
# (root; installs slurm-wlm and munge first; about 3 minutes on 2 cores).
.PHONY: slurm-test
slurm-test: $(VENV)/.test-installed
	scripts/install_slurm.sh
	$(BIN)/python -m pytest tests/slurm -m slurm --durations=0 $(PYTEST_ARGS)
