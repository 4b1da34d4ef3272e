// The engine panel: Algorithm, Threads and Hash, offered within what the engine and the
// device allow (the option lines of `uci`, navigator.hardwareConcurrency, cross-origin
// isolation), and the engine's name and status.

/** Hash sizes offered, in MB, before bounding by the engine's min and max and the device. */
const HASH_SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048];

/** The largest table worth offering on this device, in MB: a quarter of its memory where
 * the browser tells it (`navigator.deviceMemory`, in GiB, rounded; Chromium only). A size
 * offered that cannot be allocated after all is refused by the engine, which keeps its table. */
export function deviceHashLimitMb(deviceMemoryGiB = navigator.deviceMemory) {
  return typeof deviceMemoryGiB === 'number' && deviceMemoryGiB > 0 ? deviceMemoryGiB * 256 : Infinity;
}

const STATUS_TEXT = {
  loading: 'starting…',
  ready: 'ready',
  computing: 'thinking',
  stopping: 'stopping',
  failed: 'failed',
};

/** The engine statuses the header can show. */
export const ENGINE_STATUSES = Object.keys(STATUS_TEXT);

/** What the header says for an engine status. */
export function statusLabel(status) {
  return `engine ${STATUS_TEXT[status] ?? status}`;
}

export class EnginePanel {
  /**
   * @param {object} p
   * @param {HTMLElement} p.panel
   * @param {HTMLElement} p.statusEl  where the engine's name and status are shown
   * @param {import('./engineClient.js').EngineClient} p.engine
   * @param {object} p.settings  shared settings (algorithm, threads, hash)
   * @param {number} p.maxThreads  threads the device offers (1 if not cross-origin isolated)
   * @param {() => void} p.onChange  an option changed: settings must be saved and searches restarted
   */
  constructor({ panel, statusEl, engine, settings, maxThreads, onChange }) {
    Object.assign(this, { panel, statusEl, engine, settings, maxThreads, onChange });
    const q = (name) => panel.querySelector(`[name="${name}"]`);
    this.algorithm = q('algorithm');
    this.threads = q('threads');
    this.hash = q('hash');
    this.algorithm.addEventListener('change', () => this.changed('algorithm', this.algorithm.value));
    this.threads.addEventListener('change', () => this.changed('threads', Number(this.threads.value)));
    this.hash.addEventListener('change', () => this.changed('hash', Number(this.hash.value)));
    for (const el of [this.algorithm, this.threads, this.hash]) el.disabled = true;
  }

  /** Fills the controls from the engine's options (after each boot) and sends the settings. */
  setOptions(options) {
    const algorithm = options.get('Algorithm');
    const algorithms = algorithm?.vars?.length ? algorithm.vars : [];
    this.algorithm.innerHTML = algorithms.map((a) => `<option>${a}</option>`).join('') || '<option value="">(single algorithm)</option>';
    this.algorithm.disabled = algorithms.length < 2;
    if (!algorithms.includes(this.settings.algorithm)) this.settings.algorithm = algorithm?.default ?? algorithms[0] ?? '';
    this.algorithm.value = this.settings.algorithm;

    const threadsOption = options.get('Threads');
    const maxThreads = Math.max(1, Math.min(this.maxThreads, threadsOption?.max ?? 1));
    this.threads.innerHTML = Array.from({ length: maxThreads }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join('');
    this.threads.disabled = maxThreads < 2;
    const threads = this.settings.threads === 0 ? maxThreads : Math.min(this.settings.threads, maxThreads);
    this.threads.value = String(threads);

    const hashOption = options.get('Hash');
    const minMb = hashOption?.min ?? 1;
    const maxMb = Math.max(minMb, Math.min(hashOption?.max ?? 16, deviceHashLimitMb()));
    const sizes = HASH_SIZES.filter((mb) => mb >= minMb && mb <= maxMb);
    this.hash.innerHTML = sizes.map((mb) => `<option value="${mb}">${mb} MB</option>`).join('');
    this.hash.disabled = sizes.length < 2;
    const hash = sizes.filter((mb) => mb <= this.settings.hash).pop() ?? sizes[0];
    this.hash.value = String(hash);
    this.hash.title = hashOption ? `The engine allows ${hashOption.min}–${hashOption.max} MB; offered up to ${maxMb} MB${Number.isFinite(deviceHashLimitMb()) ? ' (a quarter of this device\'s memory)' : ''}` : '';

    if (this.settings.algorithm) this.engine.setOption('Algorithm', this.settings.algorithm);
    this.engine.setOption('Threads', threads);
    if (hash) this.engine.setOption('Hash', hash);
  }

  /**
   * Reads engine errors about the options: a Hash the wasm memory cannot hold is refused
   * by the engine, which keeps its old table; the control goes back to that size.
   */
  engineError(message) {
    const refused = /cannot allocate a (\d+) MiB hash table; keeping the (\d+) MiB table/.exec(message);
    if (!refused) return;
    const kept = Number(refused[2]);
    this.settings.hash = kept;
    this.engine.confirmOption('Hash', kept);
    if (![...this.hash.options].some((o) => Number(o.value) === kept)) this.hash.add(new Option(`${kept} MB`, String(kept)));
    this.hash.value = String(kept);
    this.onChange();
  }

  changed(key, value) {
    this.settings[key] = value;
    if (key === 'algorithm') this.engine.setOption('Algorithm', value);
    if (key === 'threads') this.engine.setOption('Threads', value);
    if (key === 'hash') this.engine.setOption('Hash', value);
    this.onChange();
  }

  showStatus(status) {
    this.statusEl.textContent = statusLabel(status);
    this.statusEl.title = this.engine.name || 'meshmate engine';
    if (this.engine.name) this.panel.querySelector('summary').textContent = `Engine · ${this.engine.name}`;
    this.statusEl.dataset.status = status;
  }
}
