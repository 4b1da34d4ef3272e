// Messages that reach a worker before its wasm is loaded: held, then handled in order.
// Every worker here starts by loading its wasm, and a page may post at once.

/**
 * @template T
 * @param {(message: T) => void} handle what to do with each message once ready
 * @returns {{ receive(message: T): void, open(): void }} `receive` takes each message
 *   as it arrives; `open` marks the worker ready and handles the held ones first
 */
export function inbox(handle) {
  let held = [];
  return {
    receive(message) {
      if (held) held.push(message);
      else handle(message);
    },
    open() {
      const waiting = held;
      held = null;
      for (const message of waiting) handle(message);
    },
  };
}
