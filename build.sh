#!/usr/bin/env bash
# Every build, serve and test entry point of meshmate. Usage: ./build.sh COMMAND
#   setup   install what is missing (Debian packages, cargo tools, npm and PyPI packages)
#   setup-matches   setup, plus the engines only strength matches play (ethereal-chess)
#   build   native release binaries (meshmate; meshmate-cluster, the MPI engine), wasm packages into pkg/, the web app, the npm package
#   serve   build, then serve the app on localhost with COOP/COEP headers, and the class's relay at /class
#   pack    the npm package for web developers: wasm builds, then target/pack/meshmate-VERSION.tgz
#   test    setup, then every test: Rust (native), the MPI engine under mpirun, wasm in headless Chromium, browser end to end
#   test-native [LAYER]   the native tests of one layer (chess, eval, tt, search, net, machine, parallel, stats, uci, relay, cluster, cli), or of all
#   test-page PAGE        the browser tests of one page or part (app, lab, class, engine-worker, pure, package, lab-scaling, ...)
#   bench   native bench (nodes signature and nodes per second)
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(pwd)"
# Cargo's output: target/ in the checkout, or CARGO_TARGET_DIR (a build cache kept outside
# it, as .ci/run keeps one between clean clones).
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"

log() { printf '== %s\n' "$*" >&2; }

# --- setup ---------------------------------------------------------------------------
# OpenMPI (mpirun and the library) and libclang for the `cluster` feature: the mpi crate
# generates its bindings to the installed MPI with bindgen.
DEBIAN_PACKAGES=(stockfish glaurung toga2 chromium chromium-driver rustc-web cargo-web rust-web-src lld-22 binaryen python3-venv openmpi-bin libopenmpi-dev libclang-dev)

# Opponents only tests/tuning/match.py plays (docs/strength.md); no test needs them.
MATCH_PACKAGES=(ethereal-chess)

# Installs the Debian packages given that are missing.
setup_debian() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    log "installing Debian packages: ${missing[*]}"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
  fi
}

setup_python() {
  if ! python3 -c 'import chess' 2>/dev/null; then
    log "installing python-chess from PyPI"
    python3 -m pip install -q 'chess==1.11.2'
  fi
}

# The browser engine: cargo builds the library for wasm32 with Debian's rustc-web, which
# builds std from source (build-std); wasm-bindgen-cli writes the JS glue, and its
# wasm-bindgen-test-runner runs the wasm tests in Chromium. It must equal the wasm-bindgen
# crate pinned in Cargo.toml.
WASM_BINDGEN_VERSION=0.2.130
# The wasm memory maximum: all wasm32 can address (65,536 pages of 64 KiB), so the Hash
# option's largest table (1024 MiB: one allocation must stay under 2 GiB on wasm32) fits
# beside the old one while it is replaced. Browsers reserve a shared memory's maximum as
# address space only; pages are committed as the memory grows, and a table the device
# cannot hold is refused (memory.grow fails) with the old one kept.
WASM_MAX_MEMORY=$((4 * 1024 * 1024 * 1024))
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"

# wasm-bindgen-cli at opt-level 1 and without its default TLS (rustls and ring, for
# WebDriver servers reached over https; ours is chromedriver on localhost): it compiles in
# less time, and what it does (rewrite a 3 MB module, serve a test page) takes a second
# either way.
setup_wasm() {
  if [ "$("$CARGO_BIN/wasm-bindgen" --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes)"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 nice cargo install --quiet --no-default-features wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
}
# The front end's npm packages (exact versions in www/package-lock.json); reinstalled when the lock changes.
setup_www() {
  if [ ! -f "$ROOT/www/node_modules/.package-lock.json" ] || [ "$ROOT/www/package-lock.json" -nt "$ROOT/www/node_modules/.package-lock.json" ]; then
    log "installing the front end's npm packages"
    (cd "$ROOT/www" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

cmd_setup() { setup_debian "${DEBIAN_PACKAGES[@]}"; setup_python; setup_wasm; setup_www; }
cmd_setup_matches() { cmd_setup; setup_debian "${MATCH_PACKAGES[@]}"; }

# --- build ---------------------------------------------------------------------------
build_native() {
  log "building native release binaries (target/release/meshmate, target/release/meshmate-cluster)"
  cargo build --release --quiet
  # Without the default `relay` feature: the MPI engine needs none of the relay's crates.
  cargo build --release --quiet --no-default-features --features cluster --bin meshmate-cluster
}
# Runs "$@" in the wasm build environment of flavor $1: `threads` (atomics, shared imported
# memory, the TLS exports wasm-bindgen-rayon needs) or `single` (no atomics, for pages that
# are not cross-origin isolated). Each flavor has its own target dir: their flags differ.
# Reference types stay off: Debian's wasm-opt (binaryen 108) rewrites wasm-bindgen's
# externref table into a form today's browsers reject; without them wasm-bindgen keeps
# JS objects in a JS array instead, at no measurable cost to the search.
# SIMD128 in both flavors: the network evaluation's row updates and output product run as
# 128-bit vector code (crate/eval/nnue). Every browser Play supports has it: Chromium 91,
# Firefox 89, Safari 16.4 (Can I use, "WebAssembly SIMD"); a browser without it refuses
# to compile the module, so there is no scalar wasm build to fall back to.
wasm_env() {
  local flavor=$1; shift
  local features="+bulk-memory,+mutable-globals,+nontrapping-fptoint,+sign-ext,+simd128,-reference-types"
  local link="-C link-arg=--max-memory=$WASM_MAX_MEMORY"
  if [ "$flavor" = threads ]; then
    features+=",+atomics"
    link+=" -C link-arg=--shared-memory -C link-arg=--import-memory"
    link+=" -C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size"
    link+=" -C link-arg=--export=__tls_align -C link-arg=--export=__tls_base"
  fi
  # build-std through cargo's environment, so it reaches every cargo call wasm-pack makes.
  PATH="/usr/bin:$CARGO_BIN:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=panic_abort,std,test \
    RUSTFLAGS="-C target-feature=$features $link" CARGO_TARGET_DIR="$TARGET/wasm-$flavor" "$@"
}

# Compiles the library for wasm32 in flavor $1 (`threads` or `single`).
compile_wasm() { log "compiling the wasm library, $1"; wasm_env "$1" cargo build --quiet --release --lib --target wasm32-unknown-unknown; }
# Writes pkg/$1 from the compiled library: wasm-bindgen's JS glue for `--target web`
# beside the module, which wasm-opt optimises.
package_wasm() {
  local flavor=$1 out="$ROOT/pkg/$1"
  log "writing wasm package pkg/$flavor"
  rm -rf "$out"
  "$CARGO_BIN/wasm-bindgen" --target web --out-dir "$out" --out-name meshmate \
    "$TARGET/wasm-$flavor/wasm32-unknown-unknown/release/meshmate.wasm"
  # -g keeps the name section: Rust function names in panic stack traces and in
  # profiles (tests/tuning/wasm_profile.py); the code is the same byte for byte.
  wasm-opt -O3 -g --enable-threads --enable-bulk-memory --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-simd \
    --enable-multivalue "$out/meshmate_bg.wasm" -o "$out/meshmate_bg.wasm"
}
build_wasm_flavor() { compile_wasm "$1"; package_wasm "$1"; }
build_wasm() { build_wasm_flavor threads; build_wasm_flavor single; }
# The web app: Vite bundles www/ into www/dist and copies engine/, console.html, pkg/ and
# coi-serviceworker.js beside it, so www/dist is a static site anyone can host.
build_www() {
  setup_www
  log "building the web app into www/dist"
  (cd "$ROOT/www" && npx vite build --logLevel warn)
}

# --- pack ----------------------------------------------------------------------------
# The npm package for web developers (www/package/README.md): the engine worker Play uses,
# unchanged, both wasm builds as build_wasm left them, and www/package/ (package.json,
# README, types, example page), staged in target/pack/meshmate and packed by npm.
PACK_DIR="$ROOT/target/pack"
build_pack() {
  local stage="$PACK_DIR/meshmate" version flavor
  version=$(awk -F'"' '/^version = / { print $2; exit }' "$ROOT/Cargo.toml")
  log "packing the npm package target/pack/meshmate-$version.tgz"
  rm -rf "$PACK_DIR"
  mkdir -p "$stage/engine" "$stage/pkg"
  cp -r "$ROOT/www/package/." "$ROOT/LICENSE" "$stage/"
  cp "$ROOT/www/engine/worker.js" "$ROOT/www/engine/search-worker.js" "$ROOT/www/engine/inbox.js" "$stage/engine/"
  for flavor in threads single; do
    [ -f "$ROOT/pkg/$flavor/meshmate_bg.wasm" ] || { log "pkg/$flavor is not built: run ./build.sh pack"; exit 1; }
    # wasm-pack's own package.json, README and .gitignore (which ignores everything) stay out.
    cp -r "$ROOT/pkg/$flavor" "$stage/pkg/$flavor"
    rm -f "$stage/pkg/$flavor/"{package.json,README.md,LICENSE,.gitignore}
  done
  (cd "$stage" && npm pkg set "version=$version" && npm pack --silent --pack-destination "$PACK_DIR" >/dev/null)
  [ -f "$PACK_DIR/meshmate-$version.tgz" ] || { log "npm pack did not write meshmate-$version.tgz"; exit 1; }
}
cmd_pack() { build_wasm; build_pack; }

cmd_build() { cmd_setup; build_native; build_wasm; build_www; build_pack; }

# --- test ----------------------------------------------------------------------------
# The native tests build once, in the test profile (Cargo.toml: optimised, with debug
# assertions and overflow checks, compiled in parallel units) and with the `cluster`
# feature beside the default `relay`: the library, both binaries and every test target
# share one compile. The binaries under test are that build's (target/debug); the wasm
# tests, the MPI game and the browser tests use them too, so `test` builds no release
# binary (`build` and `serve` do).
NATIVE_FEATURES=(--features cluster)
NATIVE_BIN="$TARGET/debug/meshmate"
# The library and both binaries first, so that the browser tests (which start the native
# relay) need not wait for every test target. Asking for one small test target builds them
# with the features of the full test build (dev-dependencies' included), so the rest of
# the build reuses them; `cargo build --bins` would not (other features, another library).
test_native_binaries() { nice cargo test "${NATIVE_FEATURES[@]}" --no-run --quiet --test layering; }
test_native_build() { nice cargo test "${NATIVE_FEATURES[@]}" --no-run --quiet; }
# Every native test: unit tests, tests/*.rs, and the MPI engine under real mpirun
# (tests/cluster.rs runs one job at a time), then a game against python-chess at 4 ranks.
test_native() {
  cargo test "${NATIVE_FEATURES[@]}"
  log "a game against python-chess's UCI client at 4 ranks"
  python3 "$ROOT/tests/cluster/game.py" "$TARGET/debug/meshmate-cluster" 4 60
}
# The wasm tests share the threaded package's compile (same flags, profile and target dir;
# build-std lists `test`, so the library's units are the same with and without the test
# harness); wasm-bindgen-test-runner runs them in headless Chromium through chromedriver
# (with webdriver.json's flags), in a dedicated worker with a real rayon pool.
test_wasm() {
  local signature nnue_signature sim_signature
  signature=$("$NATIVE_BIN" bench --eval classic | awk '$2 == "nodes" && $4 == "nps" { print $1 }')
  nnue_signature=$("$NATIVE_BIN" bench --eval nnue | awk '$2 == "nodes" && $4 == "nps" { print $1 }')
  sim_signature=$("$NATIVE_BIN" sim --signature | awk '{ print $1 }')
  log "wasm tests in headless Chromium (native bench signatures $signature, with the network $nnue_signature)"
  # The exactness test searches 32 positions with every algorithm on 2 and 4 workers
  # (about 25 s): more than wasm-bindgen-test's default 20 s per test.
  MESHMATE_NATIVE_BENCH_NODES="$signature" MESHMATE_NATIVE_NNUE_BENCH_NODES="$nnue_signature" \
    MESHMATE_NATIVE_SIM_HASH="$sim_signature" WASM_BINDGEN_TEST_TIMEOUT=300 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$CARGO_BIN/wasm-bindgen-test-runner" CHROMEDRIVER=/usr/bin/chromedriver \
    wasm_env threads nice cargo test --release --target wasm32-unknown-unknown --test wasm_engine
}
# End-to-end tests of the built app: Playwright drives Debian's Chromium against www/serve.mjs.
# Niced, as they run beside the native tests, whose time limits are the tighter.
test_www() {
  log "browser end-to-end tests (screenshots in www/test-results/)"
  (cd "$ROOT/www" && MESHMATE_NATIVE="$NATIVE_BIN" nice npm test)
}

# Stage times. Each stage is timed (when it started, its wall clock, the CPU its processes
# used) into $STAGES/log, and the table is printed when `test` ends, also when a stage
# fails, so a slow stage is seen the day it appears.
STAGES=""
TEST_START=$SECONDS
# The CPU seconds this shell's waited-for children have used (user + system), read from
# /proc without a subshell of its own (whose children would be another set).
children_cpu() {
  local stat
  read -r stat < "/proc/$BASHPID/stat"
  stat=${stat##*) }   # the fields after the command name
  read -r -a stat <<< "$stat"
  CHILDREN_CPU=$(( (stat[13] + stat[14]) / $(getconf CLK_TCK) ))
}
# stage LANE NAME COMMAND...: runs COMMAND (in the background, so that `set -e` holds
# inside it) and records its times, or its failure (also as $STAGES/LANE-failed, which
# the other lane's wait_for reads).
stage() {
  local lane=$1 name=$2; shift 2
  local start=$SECONDS cpu_start pid status=ok
  children_cpu; cpu_start=$CHILDREN_CPU
  log "[$lane] $name"
  "$@" &
  pid=$!
  wait "$pid" || { status=FAILED; touch "$STAGES/$lane-failed"; }
  children_cpu
  printf '%d\t%d\t%d\t%s\t%s%s\n' $((start - TEST_START)) $((SECONDS - start)) $((CHILDREN_CPU - cpu_start)) \
    "$lane" "$name" "$([ $status = ok ] || printf '  (FAILED)')" >> "$STAGES/log"
  [ $status = ok ]
}
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
print_stages() {
  local status=$? total=$((SECONDS - TEST_START)) start wall cpu lane name
  if [ -s "$STAGES/log" ]; then
    {
      printf '\n== stage times: start, wall clock (m:ss), CPU seconds of its processes, lane, stage\n'
      sort -n "$STAGES/log" | while IFS=$'\t' read -r start wall cpu lane name; do
        printf '%6s %6s %6d  %-7s %s\n' "$(mmss "$start")" "$(mmss "$wall")" "$cpu" "$lane" "$name"
      done
      printf '%6s %6s         total\n' "" "$(mmss "$total")"
    } >&2
  fi
  rm -rf "$STAGES"
  return $status
}

# Two lanes side by side, as two cores allow. The web lane leads: it compiles both wasm
# flavors (which need no wasm-bindgen yet), installs wasm-bindgen-cli if missing, writes
# the packages and the app, and runs the browser tests, the longest stage, as soon as the
# native binaries are there (they start the native relay). The native lane, niced while
# it compiles, builds the binaries, then the tests, runs them, and then the wasm tests
# (which read the native bench signatures) once the threaded package is written.
# A lane signals the other with a file in $STAGES: the step done, or (stage writes it) that it failed.
lane_native() {
  stage native "native library and binaries (test profile, relay and cluster)" test_native_binaries
  touch "$STAGES/native-binaries"
  stage native "native test targets" test_native_build
  stage native "native tests, MPI tests, a 4-rank game" test_native
  stage native "(waiting for the wasm packages)" wait_for web-packages web-failed
  stage native "wasm tests in Chromium" test_wasm
}
lane_web() {
  stage web "wasm compile, threads" compile_wasm threads
  stage web "wasm compile, single" compile_wasm single
  stage web "wasm-bindgen-cli" setup_wasm
  stage web "wasm packages, web app, npm package" eval 'package_wasm threads; package_wasm single; build_www; build_pack'
  touch "$STAGES/web-packages"
  stage web "(waiting for the native binaries)" wait_for native-binaries native-failed
  stage web "browser tests" test_www
}
# wait_for DONE FAILED: waits until the other lane has written $STAGES/DONE; fails at once if it wrote FAILED.
wait_for() {
  until [ -e "$STAGES/$1" ]; do
    [ ! -e "$STAGES/$2" ] || { log "the other lane failed"; return 1; }
    sleep 1
  done
}
cmd_test() {
  STAGES=$(mktemp -d)
  trap print_stages EXIT
  stage setup "Debian packages" setup_debian "${DEBIAN_PACKAGES[@]}"
  stage setup "python-chess, npm packages" eval 'setup_python; setup_www'
  local native web failed=0
  lane_native & native=$!
  lane_web & web=$!
  wait "$native" || failed=1
  wait "$web" || failed=1
  ((failed == 0)) || { log "a lane failed: see (FAILED) below"; exit 1; }
}

# The inner loop: the native tests of one layer, or of them all.
cmd_test_native() {
  local layer=${1:-all} tests=() units=""
  case "$layer" in
    all) cargo test "${NATIVE_FEATURES[@]}"; return ;;
    chess) units=chess::; tests=(perft rules fen parsers) ;;
    eval) units=eval::; tests=(eval nnue) ;;
    tt) units=tt:: ;;
    search) units=search::; tests=(search pure) ;;
    net) tests=(net) ;;
    machine) units=machine::; tests=(sim sim_churn sim_measures sim_tables sim_tree) ;;
    parallel) units=parallel::; tests=(parallel) ;;
    stats) units=stats::; tests=(speedup papers reproduce) ;;
    uci) units=uci::; tests=(uci_pipe uci_processors uci_slices) ;;
    relay) units=relay::; tests=(relay class) ;;
    cluster) units=machine::cluster::; tests=(cluster) ;;
    cli) tests=(cli layering); cargo test "${NATIVE_FEATURES[@]}" --bins ;;
    *) log "unknown layer '$layer': chess, eval, tt, search, net, machine, parallel, stats, uci, relay, cluster, cli or all"; exit 2 ;;
  esac
  if [ -n "$units" ]; then cargo test "${NATIVE_FEATURES[@]}" --lib "$units"; fi
  if ((${#tests[@]})); then cargo test "${NATIVE_FEATURES[@]}" "${tests[@]/#/--test=}"; fi
}
# The inner loop in the browser: one page's tests (www/tests/PAGE.test.mjs) against the
# app as last built; `--build` rebuilds the threaded wasm package and the app first.
cmd_test_page() {
  local page=${1:-} file
  if [ "$page" = --build ]; then build_wasm_flavor threads; build_www; page=${2:-}; fi
  file="$ROOT/www/tests/$page.test.mjs"
  [ -f "$file" ] || { log "no page '$page': one of $(cd "$ROOT/www/tests" && ls *.test.mjs | sed 's/\.test\.mjs//' | tr '\n' ' ')"; exit 2; }
  [ -f "$ROOT/www/dist/index.html" ] || { log "the app is not built: ./build.sh build (or ./build.sh test-page --build $page)"; exit 1; }
  [ -x "$NATIVE_BIN" ] || test_native_binaries
  (cd "$ROOT/www" && MESHMATE_NATIVE="$NATIVE_BIN" node --test "tests/$page.test.mjs")
}

# --- serve ---------------------------------------------------------------------------
# Options go to www/serve.mjs: --port N, --no-isolation (serve without COOP/COEP).
# The class's relay (`meshmate relay`) runs beside it on RELAY_PORT (default 8091) until
# serve ends; serve.mjs passes the page's /class WebSocket to it, so a class needs only
# the page's own origin. Creating a class takes the lecturer's token, kept in
# target/lecturer-token (made once, readable by its owner only): serve prints the
# lecturer's link with it; students need only the class's link.
cmd_serve() {
  cmd_build
  local relay_port="${RELAY_PORT:-8091}" relay_pid token_file="$TARGET/lecturer-token"
  if [ ! -s "$token_file" ]; then
    (umask 077 && od -An -tx1 -N16 /dev/urandom | tr -d ' \n' > "$token_file")
  fi
  "$TARGET/release/meshmate" relay --listen "127.0.0.1:$relay_port" --lecturer-token-file "$token_file" &
  relay_pid=$!
  trap "kill $relay_pid 2>/dev/null || true" EXIT
  node "$ROOT/www/serve.mjs" --relay "127.0.0.1:$relay_port" --lecturer-token-file "$token_file" "$@"
}

# --- bench ---------------------------------------------------------------------------
cmd_bench() { build_native; "$TARGET/release/meshmate" bench "$@"; }

case "${1:-}" in
  setup) cmd_setup ;;
  setup-matches) cmd_setup_matches ;;
  build) cmd_build ;;
  serve) shift; cmd_serve "$@" ;;
  test) cmd_test ;;
  test-native) shift; cmd_test_native "$@" ;;
  test-page) shift; cmd_test_page "$@" ;;
  pack) cmd_pack ;;
  bench) shift; cmd_bench "$@" ;;
  *) sed -n '2,11p' "$0"; exit 2 ;;
esac
