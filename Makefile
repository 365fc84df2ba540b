# The two set-up commands: `make run` and `make test`. Both provision what they need first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SNAKEMAKE := $(BIN)/snakemake
PROFILE ?= profiles/local
CONFIG ?=
SNAKE_ARGS ?=
CONFIG_ARG := $(if $(CONFIG),--configfile $(CONFIG),)

.PHONY: run test venv envs lint format calibrate rerun report clean

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 needed"'
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq python3-venv; fi; \
	  $(PYTHON) -m venv $(VENV); }
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

envs: venv
	$(BIN)/simcodebench env setup python

## make run: the embedded default (the re4 suite, oracle and mutants), then the HTML report.
run: envs
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) $(SNAKE_ARGS)
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) --report results/summary/report.html
	@echo "scores: results/summary/scores.csv  tables: results/summary/summary.md  report: results/summary/report.html"

## make test: the whole test suite.
test: envs
	$(BIN)/pytest -q

## make calibrate: regenerate every calibration (thresholds) on this machine.
calibrate: envs
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) calibrate --forcerun calibration

## make rerun CASE=suite/case [AGENT=name]: execute and score one case again (never a new LLM call).
rerun: envs
	@test -n "$(CASE)" || { echo "usage: make rerun CASE=suite/case [AGENT=name]"; exit 2; }
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG) \
	  $$($(BIN)/simcodebench targets $(CONFIG_ARG) --case $(CASE) $(if $(AGENT),--agent $(AGENT),)) \
	  --forcerun execute
	$(SNAKEMAKE) --profile $(PROFILE) $(CONFIG_ARG)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/snakefmt --check Snakefile workflow/rules
	$(SNAKEMAKE) --lint

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/snakefmt Snakefile workflow/rules

clean:
	rm -rf results .snakemake
