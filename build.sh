#!/usr/bin/env bash
# Every build, serve and test entry point of meshmate. Usage: ./build.sh COMMAND
#   setup   install what is missing (Debian packages, cargo tools, npm and PyPI packages)
#   build   native release binary, wasm packages into pkg/, the web app
#   serve   build, then serve the app on localhost with COOP/COEP headers
#   test    setup, then every test: Rust (native), wasm in headless Chromium, browser end to end
#   bench   native bench (nodes signature and nodes per second)
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(pwd)"

log() { printf '== %s\n' "$*" >&2; }

# --- setup ---------------------------------------------------------------------------
DEBIAN_PACKAGES=(stockfish glaurung toga2 chromium chromium-driver rustc-web cargo-web rust-web-src lld-22 binaryen python3-venv)

setup_debian() {
  local missing=()
  for p in "${DEBIAN_PACKAGES[@]}"; do
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

setup_wasm() { :; }   # filled by the browser-engine work
# The front end's npm packages (exact versions in www/package-lock.json); reinstalled when the lock changes.
setup_www() {
  if [ ! -f "$ROOT/www/node_modules/.package-lock.json" ] || [ "$ROOT/www/package-lock.json" -nt "$ROOT/www/node_modules/.package-lock.json" ]; then
    log "installing the front end's npm packages"
    (cd "$ROOT/www" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

cmd_setup() { setup_debian; setup_python; setup_wasm; setup_www; }

# --- build ---------------------------------------------------------------------------
build_native() { log "building native release binary"; cargo build --release --quiet; }
build_wasm() { :; }
# The web app: Vite bundles www/ into www/dist and copies engine/, console.html, pkg/ and
# coi-serviceworker.js beside it, so www/dist is a static site anyone can host.
build_www() {
  setup_www
  log "building the web app into www/dist"
  (cd "$ROOT/www" && nice npx vite build --logLevel warn)
}

cmd_build() { build_native; build_wasm; build_www; }

# --- test ----------------------------------------------------------------------------
test_native() { log "native tests"; cargo test --release; }
test_wasm() { :; }
# End-to-end tests of the built app: Playwright drives Debian's Chromium against www/serve.mjs.
test_www() {
  build_www
  log "browser end-to-end tests (screenshots in www/test-results/)"
  (cd "$ROOT/www" && npm test)
}

cmd_test() { cmd_setup; build_native; test_native; test_wasm; test_www; }

# --- serve ---------------------------------------------------------------------------
cmd_serve() { cmd_build; log "serving is provided by the browser-engine work"; }

# --- bench ---------------------------------------------------------------------------
cmd_bench() { build_native; "$ROOT/target/release/meshmate" bench "$@"; }

case "${1:-}" in
  setup) cmd_setup ;;
  build) cmd_build ;;
  serve) cmd_serve ;;
  test) cmd_test ;;
  bench) shift; cmd_bench "$@" ;;
  *) sed -n '2,8p' "$0"; exit 2 ;;
esac
