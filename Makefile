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

test: $(STAMP)
	$(BIN)/python -m pytest -q tests --ignore=tests/perf

perf: $(STAMP)
	$(BIN)/python -m pytest -q tests/perf -p no:randomly --benchmark-enable --benchmark-json=results/perf.json
	$(BIN)/python tests/perf/write_report.py

report: $(STAMP)
	$(BIN)/claimbench run --all --grid quick --jobs $(JOBS)
	$(BIN)/claimbench report

smoke: $(STAMP)
	$(BIN)/claimbench run --all --grid smoke --jobs $(JOBS) --store results/smoke.sqlite

clean:
	rm -rf $(VENV) results build dist *.egg-info
