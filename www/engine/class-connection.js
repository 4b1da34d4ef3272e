// A tab's membership of a class at the relay (its protocol: crate/relay/mod.rs): one
// WebSocket at a time, the beats that tell the relay the tab lives, and the lecturer's way
// back when its socket fails. The class worker (class-worker.js) holds one; it is apart from
// the worker so that node tests run it against a real relay.
//
// Beats start when a socket opens and stop when it closes, so a slow handshake costs
// nothing. When the lecturer's socket fails (not closed by the tab, not after the relay said
// the session closed) the relay keeps the session for its grace period: the connection
// opens a new socket and sends `resume` with the code and the token `created` gave it,
// again every RESUME_RETRY_MS (the relay may not have noticed the drop yet), until the relay
// answers `resumed` or RESUME_WITHIN_MS have passed. A student has no way back: its
// membership ends with its socket.

/** How often the relay hears that this tab lives (its --lost-after-ms is 10 s by default). */
export const BEAT_MS = 1000;
/** How long a dropped lecturer waits between two tries to resume. */
export const RESUME_RETRY_MS = 1000;
/** How long it keeps trying: the relay's grace (--owner-grace-ms, 30 s by default) after
 * the drop, which the relay may take --lost-after-ms (10 s) to notice. */
export const RESUME_WITHIN_MS = 40000;

export class RelayConnection {
  /**
   * Opens the membership at once: `hello` (create or join) goes out when the socket opens.
   * @param {object} p
   * @param {string} p.url  the relay's ws:// or wss:// address
   * @param {object} p.hello  `{type:'create', token}` or `{type:'join', code}`
   * @param {(message: object) => void} p.onControl  each control message of the relay (`resumed` and refused resumes excepted)
   * @param {(bytes: ArrayBuffer) => void} p.onFrame  each data frame, `[from: u16 LE][frame]`
   * @param {(message: string) => void} p.onError  the relay cannot be reached
   * @param {() => void} p.onDropped  the lecturer's socket failed: it is trying to resume
   * @param {() => void} p.onResumed  the relay took the lecturer back
   * @param {(reason: string) => void} p.onClosed  the membership is over (once, last)
   * @param {typeof WebSocket} [p.WebSocket]  the WebSocket class (the platform's by default)
   */
  constructor({ url, hello, onControl, onFrame, onError, onDropped, onResumed, onClosed, WebSocket = globalThis.WebSocket }) {
    Object.assign(this, { url, onControl, onFrame, onError, onDropped, onResumed, onClosed, WebSocketClass: WebSocket });
    /** @type {WebSocket|null} the socket now open or opening */
    this.socket = null;
    /** `{code, token}` once the relay created this tab's session: what it resumes with */
    this.resume = null;
    /** why the relay closed the session, once it said so */
    this.sessionClosed = null;
    /** why the tab itself leaves, once it does */
    this.leaving = null;
    /** whether the membership is over */
    this.over = false;
    /** while resuming: until when it tries, and the relay's last refusal */
    this.resuming = null;
    this.retry = null;
    this.open(hello);
  }

  /** Whether a socket is open to send on. */
  get connected() {
    return this.socket !== null && this.socket.readyState === this.socket.OPEN;
  }

  /** Sends a control message (an object) or a frame (bytes), if a socket is open. */
  send(message) {
    if (this.connected) this.socket.send(message instanceof Uint8Array || message instanceof ArrayBuffer ? message : JSON.stringify(message));
  }

  /** The tab leaves: its socket closes normally, which ends the session if it owns it. */
  leave(reason = 'left') {
    this.leaving = reason;
    if (this.socket) this.socket.close(1000, reason);
    else this.end(reason);
  }

  open(hello) {
    let socket;
    try {
      socket = new this.WebSocketClass(this.url);
    } catch (error) {
      if (!this.resuming) this.onError(`cannot reach the relay at ${this.url}: ${error.message}`);
      return this.closedSocket('the relay cannot be reached');
    }
    this.socket = socket;
    socket.binaryType = 'arraybuffer';
    let beat = null;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      socket.send(JSON.stringify(hello));
      beat = setInterval(() => socket.send('{"type":"beat"}'), BEAT_MS);
    };
    socket.onmessage = ({ data }) => {
      if (typeof data === 'string') this.control(data);
      else this.onFrame(data);
    };
    socket.onerror = () => {
      if (!opened && !this.resuming) this.onError(`the relay at ${this.url} cannot be reached`);
    };
    socket.onclose = ({ reason }) => {
      clearInterval(beat);
      if (this.socket === socket) this.closedSocket(reason || 'the connection to the relay is gone');
    };
  }

  control(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (this.resuming) {
      // A refusal while resuming (the relay has not noticed the drop yet) is tried again.
      if (message.type === 'resumed') {
        this.resuming = null;
        this.onResumed();
      } else if (message.type === 'error') {
        this.resuming.refused = message.message;
      }
      return;
    }
    if (message.type === 'created' && typeof message.resume === 'string') this.resume = { code: message.code, token: message.resume };
    if (message.type === 'closed') this.sessionClosed = String(message.reason ?? 'the session closed');
    this.onControl(message);
  }

  /** The socket is gone (`reason`): the lecturer tries to resume, else the membership ends. */
  closedSocket(reason) {
    this.socket = null;
    if (this.over) return;
    if (this.leaving !== null || this.sessionClosed !== null || this.resume === null) return this.end(this.leaving ?? this.sessionClosed ?? reason);
    if (!this.resuming) {
      this.resuming = { until: Date.now() + RESUME_WITHIN_MS, refused: null };
      this.onDropped();
      return this.open({ type: 'resume', ...this.resume });
    }
    if (Date.now() >= this.resuming.until) {
      return this.end(`the connection to the relay dropped and the class could not be resumed within ${RESUME_WITHIN_MS / 1000} s (${this.resuming.refused ?? reason})`);
    }
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.over) this.open({ type: 'resume', ...this.resume });
    }, RESUME_RETRY_MS);
  }

  end(reason) {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.retry);
    this.onClosed(reason);
  }
}
