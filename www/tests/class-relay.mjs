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

/** Frame kinds (crate/machine/frame.rs `FrameKind`), as their first byte says. */
export const FRAME = { program: 0, start: 1, finished: 2, done: 3 };

/**
 * A client of the relay written by hand, as a misbehaving or foreign one would be: it says
 * `hello` (create or join) when its socket opens and beats every second. Its control
 * messages are kept as an eventLog's (`events`, `next`); `onFrame({from, kind,
 * search, body})` hears each data frame; `send(to, kind, search, body)` sends one;
 * `closed` resolves with the close's {code, reason}.
 */
export function rawClient(url, hello, onFrame = () => {}) {
  const socket = new NodeWebSocket(url);
  socket.binaryType = 'arraybuffer';
  const log = eventLog();
  let beat = null;
  socket.onopen = () => {
    socket.send(JSON.stringify(hello));
    beat = setInterval(() => socket.send('{"type":"beat"}'), 1000);
  };
  socket.onmessage = ({ data }) => {
    if (typeof data === 'string') return log.hear(JSON.parse(data));
    const bytes = new Uint8Array(data);
    const view = new DataView(data);
    onFrame({ from: view.getUint16(0, true), kind: bytes[2], search: view.getUint32(3, true), body: bytes.subarray(7) });
  };
  const closed = new Promise((resolve) => {
    socket.onclose = ({ code, reason }) => {
      clearInterval(beat);
      resolve({ code, reason: String(reason) });
    };
  });
  return {
    events: log.events,
    next: log.next,
    closed,
    control: (message) => socket.send(JSON.stringify(message)),
    send(to, kind, search, body) {
      const bytes = new Uint8Array(7 + body.length);
      const view = new DataView(bytes.buffer);
      view.setUint16(0, to, true);
      bytes[2] = kind;
      view.setUint32(3, search, true);
      bytes.set(body, 7);
      socket.send(bytes);
    },
    close: () => socket.close(1000, 'done'),
  };
}

/**
 * What a client heard, in order: `hear(event)` keeps one ({type, ...}); `next(type, where,
 * ms)` resolves with the next one of `type` (and `where`) after those already taken, or
 * fails after `ms`.
 */
export function eventLog() {
  const events = [];
  const waiters = new Set();
  let taken = 0;
  return {
    events,
    hear(event) {
      events.push(event);
      for (const look of waiters) look();
    },
    next(type, where = () => true, ms = 60000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const i = events.findIndex((e, j) => j >= taken && e.type === type && where(e));
          if (i < 0) return;
          taken = i + 1;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(events[i]);
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no ${type} within ${ms} ms: ${JSON.stringify(events).slice(0, 2000)}`));
        }, ms);
        waiters.add(look);
        look();
      });
    },
  };
}
