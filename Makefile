# tablesense: `make demo` and `make test` on a fresh machine. Everything installs
# into a local virtual environment (.venv); the browser for the scoreboard tests is
# Debian's chromium (installed with apt when missing).

PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PUB     = $(VENV)/.installed-pub$(if $(EXTRAS),-$(subst $(comma),-,$(EXTRAS)))
comma   := ,
TC      := firmware/typecheck
STUBS   := $(VENV)/stubs/.installed
PORT    ?= /dev/ttyUSB0
PROFILE ?= golf
GAME    ?= golf
EXTRAS  ?=

.PHONY: setup pub browser broker test test-fast test-long lint typecheck demo flash bench bench-aims clean

setup: $(STAMP) $(STUBS)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,camera,sim]'  # every extra: a pub needs only '.' (make pub)
	touch $(STAMP)

# What a pub runs (docs/installation.md): tablesense and its base dependencies, no camera,
# simulator or test tools; `make pub EXTRAS=camera` adds the overhead camera's OpenCV
# (EXTRAS=camera,sim both).
pub: $(PUB)

$(PUB): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.$(if $(EXTRAS),[$(EXTRAS)])'
	touch $(PUB)

# The type checker and the published MicroPython ESP32 stubs of the oldest and the
# newest supported MicroPython, each in its own folder (docs/firmware.md).
$(STUBS): $(STAMP) $(TC)/checker.txt $(TC)/stubs-esp32-1.26.txt $(TC)/stubs-esp32-1.29.txt
	$(BIN)/python -m pip install --quiet -r $(TC)/checker.txt
	for v in 1.26 1.29; do \
	  rm -rf $(VENV)/stubs/esp32-$$v && \
	  $(BIN)/python -m pip install --quiet --no-compile --target $(VENV)/stubs/esp32-$$v \
	    -r $(TC)/stubs-esp32-$$v.txt || exit 1; \
	done
	touch $(STUBS)

# Debian's chromium for Playwright (no browser download: none is reachable).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium (apt)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Debian's Mosquitto for the league tests (tests/league_broker.py starts its own).
broker:
	@command -v mosquitto >/dev/null 2>&1 || { \
	  echo "installing Debian's mosquitto (apt)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq mosquitto mosquitto-clients >/dev/null; }

# The suite on three workers (pytest-xdist; WORKERS=0 runs it in one process, WORKERS=2 as
# before: most tests wait on real-time runs and chromium, so a third worker on two cores keeps
# them busier; a real-time browser test that lost a ball's colour there once placed its edges
# by a late heartbeat, fixed in tests/soak/board.py), a test file
# on one worker (a module's fixture or soak made once), the costliest files first
# (tests/conftest.py orders them; --no-loadscope-reorder keeps that order), each property
# test with a quarter of its examples (tests/conftest.py); test-fast: the tests that run in
# the test's process (no browser, firmware, Mosquitto or other program; nothing slow, no
# real-time sweep of the link: the marks slow and realtime);
# test-long: four times the examples, in one process. Each prints its time. test-fast stays
# on two workers (FAST_WORKERS): its tests use the CPU all along, and a third worker only
# adds a third collection of the suite.
# docs/performance.md, "The test suite", has the times.
WORKERS ?= 3
FAST_WORKERS ?= 2
PYTEST   = $(BIN)/python -m pytest -q -n $(1) --dist loadfile --no-loadscope-reorder
FAST    := not browser and not slow and not realtime and not micropython and not broker and not process
# Compiled modules kept between runs, outside the source tree (.venv/pycache), also where the
# environment says PYTHONDONTWRITEBYTECODE: each worker's collection rewrote the asserts of
# every test module again (pytest keeps them as bytecode), and each `tablesense` the tests
# start compiled the modules it imports. The first run fills it.
PYC     := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache
TIMED    = /usr/bin/env $(PYC) TIMEFORMAT='make $@: %0lR wall, %0lU user + %0lS sys CPU' bash -c 'time "$$@"' --

test: setup browser broker
	@$(TIMED) $(call PYTEST,$(WORKERS)) --hypothesis-profile=quick tests

test-fast: setup
	@$(TIMED) $(call PYTEST,$(FAST_WORKERS)) --hypothesis-profile=quick -m "$(FAST)" tests

test-long: setup browser broker
	@$(TIMED) $(BIN)/python -m pytest -q --hypothesis-profile=long tests

lint: setup
	$(BIN)/ruff check host tests bench firmware tools
	$(BIN)/python tools/firmware_typecheck.py

typecheck: setup
	$(BIN)/python tools/firmware_typecheck.py

# The firmware's checks on a real ESP32 at PORT (tests/board/; docs/firmware.md "On a real
# board"): version, HELLO, doctor pass, replay, no reset on open. Skipped, exit 0, without a board.
.PHONY: test-board
test-board: setup
	TABLESENSE_BOARD_PORT=$(PORT) TABLESENSE_BOARD_PROFILE=$(PROFILE) $(if $(BAUD),TABLESENSE_BOARD_BAUD=$(BAUD)) \
	  $(BIN)/python -m pytest -q -rs -s -p no:cacheprovider tests/board

demo: setup browser
	$(BIN)/tablesense demo --game $(GAME) --open

flash: $(if $(wildcard $(STAMP)),$(STAMP),$(PUB))  # a development checkout has it all already
	$(BIN)/tablesense flash --serial $(PORT) --profile $(PROFILE)

bench: setup
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The figures of the speed issue (27), each beside its anchor in the same run, in the order
# of its table (docs/performance.md); best on an idle machine: the ratios are what travels.
AIMS := "link_decode.py" \
	"replay_process.py --lines 200000 --repeat 5" \
	"replay_speed.py --long-shot 0" \
	"cli_startup.py" \
	"web_latency.py" \
	"firmware_handler.py" \
	"sim_speed.py" \
	"league_ingest.py --matches 1500 --rounds 3 --latency 3 --beside 0"

bench-aims: setup browser broker
	@for b in $(AIMS); do echo "== bench/$$b"; $(BIN)/python bench/$$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info host/*.egg-info
