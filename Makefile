# geobayes developer entry points. `make help` lists the targets.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV        := .venv
PYTHON      := $(VENV)/bin/python
SNAKEMAKE   := $(VENV)/bin/snakemake
STAMP       := $(VENV)/.installed
TORCH_VERSION := 2.13.0
NPROC       := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
PYTEST_ARGS ?=
TESTS       ?= tests

# Offline data: use the shared mirror when it exists and the caller did not choose one.
# (An exported GEOBAYES_DATA_MIRROR overrides the config key data.mirror.)
ifeq ($(strip $(GEOBAYES_DATA_MIRROR)),)
  ifneq ($(wildcard ../shared/data/.),)
    export GEOBAYES_DATA_MIRROR := $(abspath ../shared/data)
  endif
endif

.PHONY: help venv quick test lint dryrun clean paper

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 10

venv: $(STAMP)  ## create .venv and install geobayes[workflow,test,stan] (re-runs when pyproject.toml changes)

$(PYTHON):
	python3 -m venv $(VENV)

$(STAMP): pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install --upgrade pip
	# CPU torch first: an unpinned torch pulls a multi-GB CUDA build (docs/dependencies.md)
	$(PYTHON) -m pip install torch==$(TORCH_VERSION)
	$(PYTHON) -m pip install -e ".[workflow,test,stan]"
	# laplace-torch (the peer in the BNN tests) declares torchvision, which has no CPU build:
	# its pure-Python deps normally, then the four packages without dependencies
	$(PYTHON) -m pip install torchmetrics "einops<1" "unfoldNd<1" einconv linear_operator opt-einsum
	$(PYTHON) -m pip install --no-deps laplace-torch==0.3 backpack-for-pytorch==1.7.1 asdfghjkl==0.1a4 curvlinops-for-pytorch==3.0.1
	touch $@

quick: venv  ## whole DAG at quick scale (config/quick.yaml): 50 min measured on 2 cores (README)
	$(SNAKEMAKE) --cores 2 --configfile config/quick.yaml --profile profiles/local
	@echo "Figures: $(CURDIR)/figures/"
	@echo "Tables:  $(CURDIR)/tables/"

test: venv  ## test suite on 2 workers; extra pytest options: make test PYTEST_ARGS='-m "not workflow"'
	$(PYTHON) -m pytest -q -rs -n 2 --dist loadfile --no-loadscope-reorder --durations=15 $(PYTEST_ARGS) $(TESTS)

lint: venv  ## snakemake --lint of the workflow
	$(SNAKEMAKE) --lint

dryrun: venv  ## dry-run of the paper-scale DAG (config/config.yaml)
	$(SNAKEMAKE) -n --profile profiles/local

clean:  ## remove pipeline outputs: results/ figures/ tables/ logs/ (incl. rule benchmarks); keeps data/
	@for d in results figures tables logs; do \
	  if [ -e "$$d" ]; then chmod -R u+w "$$d"; rm -rf "$$d"; echo "removed $$d/"; fi; \
	done

paper: venv  ## whole DAG at paper scale (config/config.yaml) on all cores
	$(SNAKEMAKE) --cores $(NPROC) --profile profiles/local
