#!/usr/bin/env bash
# Every build, serve and test entry point of meshmate. Usage: ./build.sh COMMAND
#   setup   install what is missing (Debian packages, cargo tools, npm and PyPI packages)
#   setup-matches   setup, plus the engines only strength matches play (ethereal-chess)
#   build   native release binaries (meshmate; meshmate-cluster, the MPI engine), wasm packages into pkg/, the web app, the npm package
#   serve   build, then serve the app on localhost with COOP/COEP headers, and the class's relay at /class
#   pack    the npm package for web developers: wasm builds, then target/pack/meshmate-VERSION.tgz
#   test    setup, then every test: Rust (native), the MPI engine under mpirun, wasm in headless Chromium, browser end to end
#   bench   native bench (nodes signature and nodes per second)
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(pwd)"

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

# The browser engine: wasm-pack drives Debian's rustc-web, which builds std for wasm32 from
# source (build-std); wasm-bindgen-cli must equal the wasm-bindgen crate pinned in Cargo.toml.
WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1
# The wasm memory maximum: all wasm32 can address (65,536 pages of 64 KiB), so the Hash
# option's largest table (1024 MiB: one allocation must stay under 2 GiB on wasm32) fits
# beside the old one while it is replaced. Browsers reserve a shared memory's maximum as
# address space only; pages are committed as the memory grows, and a table the device
# cannot hold is refused (memory.grow fails) with the old one kept.
WASM_MAX_MEMORY=$((4 * 1024 * 1024 * 1024))
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"

setup_wasm() {
  if [ "$("$CARGO_BIN/wasm-bindgen" --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes)"
    nice cargo install --quiet wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
  if [ "$("$CARGO_BIN/wasm-pack" --version 2>/dev/null)" != "wasm-pack $WASM_PACK_VERSION" ]; then
    log "installing wasm-pack $WASM_PACK_VERSION (a few minutes)"
    nice cargo install --quiet wasm-pack --version "$WASM_PACK_VERSION"
  fi
  # wasm-pack checks that a wasm32 std is installed; build-std supplies the real one.
  mkdir -p "$(/usr/bin/rustc --target wasm32-unknown-unknown --print target-libdir)"
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
  PATH="/usr/bin:$CARGO_BIN:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=panic_abort,std \
    RUSTFLAGS="-C target-feature=$features $link" CARGO_TARGET_DIR="$ROOT/target/wasm-$flavor" "$@"
}

build_wasm() {
  local flavor wasm
  for flavor in threads single; do
    log "building wasm package pkg/$flavor"
    wasm_env "$flavor" nice "$CARGO_BIN/wasm-pack" --quiet build --target web --release --no-opt \
      --out-dir "$ROOT/pkg/$flavor" --out-name meshmate "$ROOT"
    wasm="$ROOT/pkg/$flavor/meshmate_bg.wasm"
    # -g keeps the name section: Rust function names in panic stack traces and in
    # profiles (tests/tuning/wasm_profile.py); the code is the same byte for byte.
    nice wasm-opt -O3 -g --enable-threads --enable-bulk-memory --enable-mutable-globals \
      --enable-nontrapping-float-to-int --enable-sign-ext --enable-simd \
      --enable-multivalue "$wasm" -o "$wasm"
  done
}
# The web app: Vite bundles www/ into www/dist and copies engine/, console.html, pkg/ and
# coi-serviceworker.js beside it, so www/dist is a static site anyone can host.
build_www() {
  setup_www
  log "building the web app into www/dist"
  (cd "$ROOT/www" && nice npx vite build --logLevel warn)
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
  (cd "$stage" && npm pkg set "version=$version" && nice npm pack --silent --pack-destination "$PACK_DIR" >/dev/null)
  [ -f "$PACK_DIR/meshmate-$version.tgz" ] || { log "npm pack did not write meshmate-$version.tgz"; exit 1; }
}
cmd_pack() { build_wasm; build_pack; }

cmd_build() { build_native; build_wasm; build_www; build_pack; }

# --- test ----------------------------------------------------------------------------
# The test profile (Cargo.toml): optimised, but with debug assertions and overflow checks,
# and compiled in parallel units, so the tests are fast to build and check more.
test_native() { log "native tests"; cargo test; }
# The MPI engine under real mpirun at 2 to 4 oversubscribed ranks; one test at a time,
# as each starts its own job. Same profile and features as build_native's, so only the
# test itself compiles.
test_cluster() {
  log "cluster tests (mpirun)"
  cargo test --release --no-default-features --features cluster --test cluster -- --test-threads=1
  log "a game against python-chess's UCI client at 4 ranks"
  python3 "$ROOT/tests/cluster/game.py" "$ROOT/target/release/meshmate-cluster" 4 60
  # The MPI test build made target/release/meshmate without the relay: the browser tests
  # of the class need it back.
  cargo build --release --quiet
}
test_wasm() {
  build_wasm   # pkg/ for the browser tests of the worker (npm test in www/)
  local signature
  signature=$("$ROOT/target/release/meshmate" bench --eval classic | awk '$2 == "nodes" && $4 == "nps" { print $1 }')
  local nnue_signature
  nnue_signature=$("$ROOT/target/release/meshmate" bench --eval nnue | awk '$2 == "nodes" && $4 == "nps" { print $1 }')
  local sim_signature
  sim_signature=$("$ROOT/target/release/meshmate" sim --signature | awk '{ print $1 }')
  log "wasm tests in headless Chromium (threaded build, rayon pool; native bench signatures $signature, with the network $nnue_signature)"
  # The exactness test searches 32 positions with every algorithm on 2 and 4 workers
  # (about 25 s): more than wasm-bindgen-test's default 20 s per test.
  MESHMATE_NATIVE_BENCH_NODES="$signature" MESHMATE_NATIVE_NNUE_BENCH_NODES="$nnue_signature" MESHMATE_NATIVE_SIM_HASH="$sim_signature" WASM_BINDGEN_TEST_TIMEOUT=300 wasm_env threads nice "$CARGO_BIN/wasm-pack" test --headless \
    --chrome --chromedriver /usr/bin/chromedriver --release "$ROOT" --test wasm_engine
}
# End-to-end tests of the built app: Playwright drives Debian's Chromium against www/serve.mjs.
test_www() {
  build_www
  build_pack   # the package test installs target/pack/meshmate-*.tgz into a scratch site
  log "browser end-to-end tests (screenshots in www/test-results/)"
  (cd "$ROOT/www" && npm test)
}

cmd_test() { cmd_setup; build_native; test_native; test_cluster; test_wasm; test_www; }

# --- serve ---------------------------------------------------------------------------
# Options go to www/serve.mjs: --port N, --no-isolation (serve without COOP/COEP).
# The class's relay (`meshmate relay`) runs beside it on RELAY_PORT (default 8091) until
# serve ends; serve.mjs passes the page's /class WebSocket to it, so a class needs only
# the page's own origin.
cmd_serve() {
  cmd_build
  local relay_port="${RELAY_PORT:-8091}" relay_pid
  "$ROOT/target/release/meshmate" relay --listen "127.0.0.1:$relay_port" &
  relay_pid=$!
  trap "kill $relay_pid 2>/dev/null || true" EXIT
  node "$ROOT/www/serve.mjs" --relay "127.0.0.1:$relay_port" "$@"
}

# --- bench ---------------------------------------------------------------------------
cmd_bench() { build_native; "$ROOT/target/release/meshmate" bench "$@"; }

case "${1:-}" in
  setup) cmd_setup ;;
  setup-matches) cmd_setup_matches ;;
  build) cmd_build ;;
  serve) shift; cmd_serve "$@" ;;
  test) cmd_test ;;
  pack) cmd_pack ;;
  bench) shift; cmd_bench "$@" ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac
