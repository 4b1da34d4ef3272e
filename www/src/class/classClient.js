// The page's end of the class worker (www/engine/class-worker.js): one module worker per
// class membership, which loads the threaded engine, opens the relay's WebSocket and runs
// this tab's processor. Messages are plain objects with a `class` field both ways:
//   page → worker: create {url, token} | join {url, code} | start {algorithm, depth, fen, pure, papersSplit} | leave
//   worker → page: created | joined | waiting | members | search | activity | info | result |
//                  ended | lost | closed | error | trace
// This file only starts and ends the worker and turns its crashes into `error` messages, so
// the view has one stream to read.

import { lecturerToken } from './classLink.js';

/** How long `leave` waits for the worker to close its socket before the worker is ended. */
const LEAVE_GRACE_MS = 1000;

/** The tab's session storage, where it has one (not in node's tests). */
const sessionStore = () => {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
};

export class ClassClient {
  /**
   * @param {object} p
   * @param {(message: object) => void} p.onMessage  every message of the worker, and its crashes as `{class:'error'}`
   * @param {() => Worker} [p.createWorker]  makes the worker (tests and other hosts may swap it)
   */
  constructor({ onMessage, createWorker }) {
    this.onMessage = onMessage;
    this.createWorker =
      createWorker ?? (() => new Worker(new URL('engine/class-worker.js', document.baseURI), { type: 'module', name: 'meshmate-class' }));
    /** @type {Worker|null} */
    this.worker = null;
    // Taken now, while the page's fragment still holds it (the views rewrite the fragment).
    lecturerToken(globalThis.location?.hash ?? '', sessionStore());
  }

  get running() {
    return this.worker !== null;
  }

  /**
   * Starts a fresh worker (ending any old one) and sends it `message` (create or join); a
   * create carries the lecturer's token this tab was given.
   */
  open(message) {
    if (message.class === 'create') message = { ...message, token: lecturerToken(globalThis.location?.hash ?? '', sessionStore()) ?? '' };
    this.end();
    let worker;
    try {
      worker = this.createWorker();
    } catch (e) {
      this.onMessage({ class: 'error', message: `The class engine could not be started: ${e.message ?? e}` });
      return;
    }
    this.worker = worker;
    worker.onmessage = (e) => {
      if (this.worker === worker && e.data && typeof e.data.class === 'string') this.onMessage(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      if (this.worker !== worker) return;
      this.onMessage({ class: 'error', message: e.message ? `The class engine crashed: ${e.message}` : 'The class engine failed to load or crashed.' });
    };
    worker.onmessageerror = () => this.onMessage({ class: 'error', message: 'The class engine sent a message the page could not read.' });
    worker.postMessage(message);
  }

  /** Sends a message to the running worker; false when there is none. */
  post(message) {
    if (!this.worker) return false;
    this.worker.postMessage(message);
    return true;
  }

  /** Leaves the class: the worker says goodbye to the relay, then is ended. */
  leave() {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    worker.postMessage({ class: 'leave' });
    setTimeout(() => worker.terminate(), LEAVE_GRACE_MS);
  }

  /** Ends the worker at once (its socket closes with it). */
  end() {
    this.worker?.terminate();
    this.worker = null;
  }
}
