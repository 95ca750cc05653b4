# workbench — two-command set-up: `make run` (all notebooks -> results/) and `make test`.
# A fresh machine needs only Python 3.11 with venv/pip; the virtualenv is created on demand and
# reinstalled only when pyproject.toml changes (stamp file).

PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
EXTRAS ?= dev,scale,pretrained,bench
STAMP  := $(VENV)/.workbench-installed
SIZE   ?= full
OUT    ?= results/
JOBS   ?= 2
PYTEST_ARGS ?=
BENCH_ARGS  ?=

export MPLBACKEND ?= Agg

.PHONY: run report test test-fast lint lab bench venv clean distclean help

help:
	@echo "make run    - create .venv if needed, run every notebook (--size $(SIZE), $(JOBS) at a time) into $(OUT)"
	@echo "make report - write site/ in $(OUT): an offline HTML site of the results (index.html, pages, executed notebooks)"
	@echo "make test   - ruff, mypy, import layers and pytest (tests/, doctests of workbench/, notebooks on small data; slow tests excluded)"
	@echo "make test-fast - ruff and the unit tests and doctests in parallel (no notebooks, no browser, no slow tests)"
	@echo "make lab    - JupyterLab on notebooks/ (hand-run outputs in results/interactive/<notebook>/)"
	@echo "make bench  - run the benchmark scripts in bench/ (BENCH_ARGS=--quick for a reduced size)"
	@echo "make clean  - remove results and caches (distclean also removes .venv)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e ".[$(EXTRAS)]"
	touch $(STAMP)

# venv also installs the git filter that strips outputs from notebooks/*.ipynb when they are
# staged or compared (.gitattributes; this checkout's local git config only, nothing global)
venv: $(STAMP)
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
		git config --local filter.nbstrip.clean '$(PYTHON) tools/strip_notebook_outputs.py %f'; \
		git config --local filter.nbstrip.smudge cat; \
		echo "git filter nbstrip installed: saved notebook outputs stay out of git"; \
	fi

run: $(STAMP)
	$(BIN)/python -m workbench run --size $(SIZE) --out $(OUT) --jobs $(JOBS)

# the results site of $(OUT) (after `make run`): site/index.html in it, openable without a network
report: $(STAMP)
	$(BIN)/python -m workbench report $(OUT)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest $(PYTEST_ARGS)

# the inner loop: unit tests and doctests on every core; the notebooks and the browser tier are
# left to `make test`
test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest -n auto -q -m "not slow and not notebooks and not browser" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Jupyter refuses to run as root unless told so: add --allow-root only for root (id -u = 0)
LAB_ARGS ?= $(if $(filter 0,$(shell id -u)),--allow-root,)

LAB_HOOK := --FileContentsManager.post_save_hook=workbench.notebook_log.refresh_git_index
# after each save, a notebook that differs from the committed one only by its outputs is
# re-added (nothing is staged; git status stays clean, see tools/strip_notebook_outputs.py)
lab: venv
	$(BIN)/jupyter lab notebooks/ $(LAB_HOOK) $(LAB_ARGS)

bench: $(STAMP)
	@set -e; for script in bench/bench_*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script $(BENCH_ARGS)"; \
		$(BIN)/python "$$script" $(BENCH_ARGS); \
	done

clean:
	rm -rf results/ notebooks/results/ .pytest_cache/ .mypy_cache/ .ruff_cache/ build/ dist/
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
	find . -path ./$(VENV) -prune -o -name .ipynb_checkpoints -type d -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) *.egg-info
