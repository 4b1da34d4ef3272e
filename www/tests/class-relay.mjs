// What the class's tests run beside the page: `meshmate relay` on a free port, a TCP proxy
// in front of it that can hold a handshake back or cut a connection as a network would, and
// a WebSocket class for node (its own where it has one, else playwright's `ws`: node 20
// keeps WebSocket behind --experimental-websocket).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect } from 'node:net';
import { NATIVE, stopChild } from './browser.mjs';

/** A WebSocket class for node with the browser's interface (onopen, onmessage, binaryType, ...). */
export const NodeWebSocket = globalThis.WebSocket ?? createRequire(import.meta.url)('playwright-core/lib/utilsBundle').ws;

/**
 * Starts `meshmate relay` on a free port with `args`; resolves with its ws:// URL, its
 * port, the lecturer's token it printed, and a stopper.
 */
export async function startRelay(args = []) {
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run ./build.sh build`);
  const child = spawn(NATIVE, ['relay', '--listen', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [url, token] = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the relay did not start within 10 s: ${stderr}`)), 10000);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /relay listening on (ws:\/\/\S+)\nlecturer token (\w+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve([m[1], m[2]]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the relay exited with ${code}: ${stderr}`)));
  });
  return { url, port: Number(new URL(url).port), token, stop: () => stopChild(child) };
}

/**
 * A TCP proxy on a free port in front of 127.0.0.1:`port`, byte for byte. `holdAnswerMs`:
 * the upstream's first bytes (a WebSocket's handshake answer) are held that long, as a slow
 * network would. Resolves with its `port`, `connections` (in the order they came) and
 * `cut(connection)`, which drops one without a close frame, both ways, as a failed network
 * does; and `stop()`.
 */
export function startProxy(port, { holdAnswerMs = 0 } = {}) {
  const connections = [];
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    const connection = { client, upstream, cut: false };
    connections.push(connection);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const side of [client, upstream]) {
      side.setNoDelay(true);
      side.on('error', drop);
      side.on('close', drop);
    }
    client.pipe(upstream);
    upstream.once('data', (first) => {
      upstream.pause();
      setTimeout(() => {
        if (client.destroyed) return;
        client.write(first);
        upstream.pipe(client);
      }, holdAnswerMs);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        connections,
        cut(connection) {
          connection.cut = true;
          connection.client.resetAndDestroy();
          connection.upstream.resetAndDestroy();
        },
        stop: () =>
          new Promise((done) => {
            for (const { client, upstream } of connections) {
              client.destroy();
              upstream.destroy();
            }
            server.close(done);
          }),
      }),
    );
  });
}
