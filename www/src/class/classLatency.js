// What the lecturer's tab measures of the relay, for the classroom model's prediction: its
// round trip to the relay, by a probe, and the relay's hold of a frame, from the last
// search's trace. The class's own socket is the class worker's; the probe opens one of its
// own, asks the relay to join no session (code 0…0), which it answers at once with an error
// and a close, and times that answer: one round trip, with no session touched. The relay's
// injected delay (`--delay-ms`) holds forwarded frames only, so the probe cannot see it:
// the trace does, each frame's `send` to its `deliver`.

/** Probes taken; the least round trip is kept (the others met a busy relay, tab or network). */
const PROBES = 3;
/** A probe the relay does not answer within this is given up. */
const PROBE_TIMEOUT_MS = 5000;
/** The code no session has: the relay answers it with an error at once. */
const NO_SESSION = '0'.repeat(32);

/** One round trip to the relay at `url`, in ms (the join of no session and its refusal). */
function probeOnce(url) {
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    const socket = new WebSocket(url);
    const timer = setTimeout(() => finish(new Error(`the relay did not answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
    const finish = (error, ms) => {
      clearTimeout(timer);
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      if (socket.readyState <= WebSocket.OPEN) socket.close();
      if (error) reject(error);
      else resolve(ms);
    };
    socket.onopen = () => {
      sentAt = performance.now();
      socket.send(JSON.stringify({ type: 'join', code: NO_SESSION }));
    };
    socket.onmessage = () => finish(null, performance.now() - sentAt);
    socket.onerror = () => finish(new Error('the probe could not reach the relay'));
    socket.onclose = () => finish(new Error('the relay closed the probe unanswered'));
  });
}

/** The lecturer's least round trip to the relay at `url` over a few probes, in ms. */
export async function probeRelay(url) {
  let least = Infinity;
  for (let i = 0; i < PROBES; i++) least = Math.min(least, await probeOnce(url));
  return least;
}

/**
 * The relay's hold of a frame per hop in a search's kept deliveries (classRecording.js:
 * each `{t, sent, hops}` in µs), the median, in ms; null with none.
 */
export function relayHoldMs(delivers) {
  const holds = delivers.filter((d) => Number.isFinite(d.t) && Number.isFinite(d.sent)).map((d) => (d.t - d.sent) / Math.max(1, d.hops ?? 1));
  if (holds.length === 0) return null;
  holds.sort((a, b) => a - b);
  const mid = holds.length >> 1;
  const median = holds.length % 2 ? holds[mid] : (holds[mid - 1] + holds[mid]) / 2;
  return median / 1000;
}
