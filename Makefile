# The two commands in README.md: `make demo` and `make test`. Both create .venv when missing.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
export SDL_VIDEODRIVER ?= dummy
export SDL_AUDIODRIVER ?= dummy
export PYGAME_HIDE_SUPPORT_PROMPT := 1

.PHONY: demo test bench bench-compare soak clean appliance arm64-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/companion demo --out out

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q

# The long secrecy run: the differential games of tests/test_secrecy_differential.py,
# SECRECY_GAMES seeded games per hidden-information game (make test plays 50 each).
SECRECY_GAMES ?= 1000
soak: $(VENV)/.installed
	SECRECY_GAMES=$(SECRECY_GAMES) $(BIN)/python -m pytest -q tests/test_secrecy_differential.py

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Two runs side by side: `make bench-compare A B` (two results files, e.g. a copy of
# bench/results.json and bench/results.json), or `make bench-compare A=old.json B=new.json`.
COMPARE := $(if $(A),$(A) $(B),$(filter-out bench-compare,$(MAKECMDGOALS)))
bench-compare: $(VENV)/.installed
	$(BIN)/python bench/compare.py $(COMPARE)
ifneq ($(filter bench-compare,$(MAKECMDGOALS)),)
$(filter-out bench-compare,$(MAKECMDGOALS)):
	@:
endif

clean:
	rm -rf $(VENV) out .pytest_cache

# The appliance check (root, x86-64, QEMU; about 30 minutes; not part of `make test`):
# hardware/install.sh for real in a Pi-like VM, then boot, taps, scans, restarts, power cuts.
# DIST=trixie: the same on Debian 13 (Raspberry Pi OS Trixie, Python 3.13).
DIST ?= bookworm
appliance: $(VENV)/.installed
	$(BIN)/python hardware/appliance/check.py --dist $(DIST) $(APPLIANCE_ARGS)

# The arm64 install check: install.sh in a Debian 12 arm64 root (DIST=trixie: 13; qemu-user-static).
arm64-check: $(VENV)/.installed
	DIST=$(DIST) hardware/appliance/arm64-check.sh $(ARM64_ARGS)
