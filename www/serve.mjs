#!/usr/bin/env node
// A small static file server for the app and the engine worker, with no dependencies.
//
// Threaded WebAssembly needs SharedArrayBuffer, which browsers only give to pages that are
// cross-origin isolated: so every answer carries COOP `same-origin` and COEP `require-corp`.
// `--no-isolation` leaves them out, to test the single-threaded fallback the way a plain
// static host would serve it.
//
// Usage: node www/serve.mjs [--root DIR] [--port N] [--host H] [--no-isolation] [--relay HOST:PORT]
//                           [--lecturer-token-file FILE]
//   --root  the directory served at / (default: www/dist if it was built, else www/)
//   --port  0 picks a free port; the chosen URL is printed as `serving http://...` on stdout
//   --relay where `meshmate relay` listens (default 127.0.0.1:8091, as `./build.sh serve`
//           starts it): WebSocket upgrades on /class are passed to it byte for byte, so a
//           class's page reaches the relay at its own origin (ws(s)://host/class); its Origin
//           and Host go with it, so the relay lets in the page's own origin
//   --lecturer-token-file  the relay's lecturer token (as given to `meshmate relay`): the
//           lecturer's link, `http://.../#class?lecturer=TOKEN`, is printed as `lecturer ...`
// URLs under /pkg/ are served from the repository's pkg/ (the wasm-pack output).
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const WWW = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(WWW, '..');

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.pgn': 'text/plain; charset=utf-8',
  '.epd': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

/** Parses the command line into options; unknown flags are an error, not silently ignored. */
function parseArgs(argv) {
  const options = { root: null, port: 8080, host: '127.0.0.1', isolation: true, relay: '127.0.0.1:8091', lecturerToken: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--root') options.root = resolve(value());
    else if (arg === '--port') options.port = Number.parseInt(value(), 10);
    else if (arg === '--host') options.host = value();
    else if (arg === '--no-isolation') options.isolation = false;
    else if (arg === '--relay') options.relay = value();
    else if (arg === '--lecturer-token-file') options.lecturerToken = readFileSync(value(), 'utf8').trim();
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new Error('--port must be an integer from 0 to 65535');
  }
  const colon = options.relay.lastIndexOf(':');
  const relayPort = Number(options.relay.slice(colon + 1));
  if (colon < 1 || !Number.isInteger(relayPort) || relayPort < 1 || relayPort > 65535) {
    throw new Error('--relay must be HOST:PORT, e.g. 127.0.0.1:8091');
  }
  options.relay = { host: options.relay.slice(0, colon), port: relayPort };
  if (options.root === null) {
    const dist = join(WWW, 'dist');
    options.root = existsSync(join(dist, 'index.html')) ? dist : WWW;
  }
  return options;
}

/** Maps a URL path to a file below `root` (or below pkg/ for /pkg/), refusing `..` escapes. */
function fileFor(urlPath, root) {
  let base = root;
  let rest = urlPath;
  if (urlPath === '/pkg' || urlPath.startsWith('/pkg/')) {
    base = join(REPO, 'pkg');
    rest = urlPath.slice('/pkg'.length);
  }
  const file = resolve(base, '.' + rest);
  if (file !== base && !file.startsWith(base + sep)) return null;
  if (existsSync(file) && statSync(file).isDirectory()) return join(file, 'index.html');
  return file;
}

/**
 * Passes a WebSocket upgrade on /class to the relay: the request as it came, then bytes
 * both ways until either side closes. Any other upgrade is refused.
 */
function proxyClass(req, socket, head, relay, open) {
  let path = null;
  try {
    path = new URL(req.url, 'http://localhost').pathname;
  } catch {}
  if (path !== '/class') {
    socket.destroy();
    return;
  }
  const upstream = connect(relay.port, relay.host);
  const close = () => {
    upstream.destroy();
    socket.destroy();
    open.delete(socket);
  };
  open.add(socket);
  for (const side of [socket, upstream]) {
    side.setNoDelay(true); // frames are small and their latency is what a class measures
    side.on('error', close);
    side.on('close', close);
  }
  upstream.on('connect', () => {
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(lines.join('\r\n') + '\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
}

function serve({ root, port, host, isolation, relay, lecturerToken }) {
  const server = createServer((req, res) => {
    const headers = { 'Cache-Control': 'no-cache', 'Cross-Origin-Resource-Policy': 'same-origin' };
    if (isolation) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400, headers).end('bad request\n');
      return;
    }
    const file = fileFor(path, root);
    if (file === null || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end(`not found: ${path}\n`);
      return;
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': statSync(file).size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  const upgraded = new Set();
  server.on('upgrade', (req, socket, head) => proxyClass(req, socket, head, relay, upgraded));
  server.listen(port, host, () => {
    const { port: actual } = server.address();
    const shownHost = host === '127.0.0.1' ? 'localhost' : host;
    console.log(`serving http://${shownHost}:${actual}/ from ${root}` +
      (isolation ? ' (cross-origin isolated)' : ' (WITHOUT COOP/COEP: single-thread fallback)'));
    if (lecturerToken) console.log(`lecturer http://${shownHost}:${actual}/#class?lecturer=${encodeURIComponent(lecturerToken)} (creates a class; students need only its link)`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    for (const socket of upgraded) socket.destroy();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

try {
  serve(parseArgs(process.argv.slice(2)));
} catch (error) {
  console.error(`serve.mjs: ${error.message}`);
  process.exit(2);
}
