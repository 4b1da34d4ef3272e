// A small live view of the engine's workers, fed by the events the engine worker
// posts: which build runs (threaded with its pool of web workers, or single), the
// search speed, and, when the engine reports them, one row per worker with its state
// (busy or idle), node count and the first plies of the line it is on.
import { formatCount, formatNps } from './format.js';
import { oncePerFrame } from './frame.js';
import { playUciLine } from './game.js';

export class WorkerView {
  /**
   * @param {HTMLElement} el
   * @param {() => ({ fen: string, moves?: string[] } | null)} searchedPosition the position
   *   the engine searches now (the workers' lines start there), or null
   */
  constructor(el, searchedPosition = () => null) {
    this.el = el;
    this.searchedPosition = searchedPosition;
    /** The last line put into SAN: `{ key, san }` per worker. */
    this.shownLines = [];
    el.innerHTML = '<div class="worker-build">Engine starting…</div><div class="worker-speed"></div><div class="worker-rows"></div>';
    this.build = el.querySelector('.worker-build');
    this.speed = el.querySelector('.worker-speed');
    this.rows = el.querySelector('.worker-rows');
    /** latest per-worker records ({busy, nodes}) */
    this.workers = [];
    this.queueRender = oncePerFrame(() => this.renderRows());
  }

  /** Takes one event from the engine worker; types it does not show are ignored. */
  receive(event) {
    if (event?.type === 'engine') {
      this.build.textContent =
        event.build === 'threads'
          ? `Threaded build: a pool of ${event.poolThreads} web workers (loaded in ${event.loadMs} ms)`
          : `Single-thread build (loaded in ${event.loadMs} ms)`;
      this.build.dataset.build = event.build;
      this.build.dataset.pool = String(event.poolThreads);
    } else if (event?.type === 'info' && event.nps) {
      this.speed.textContent = `${formatNps(event.nps)} · ${formatCount(event.nodes ?? 0)} nodes`;
    } else if (event?.type === 'workers' && Array.isArray(event.workers)) {
      this.workers = event.workers;
      this.queueRender();
    }
  }

  renderRows() {
    const maxNodes = Math.max(1, ...this.workers.map((w) => w.nodes ?? 0));
    this.rows.innerHTML =
      `<div class="worker-summary">${this.workers.filter((w) => w.busy).length} of ${this.workers.length} busy</div>` +
      this.workers
        .map(
          (w, i) =>
            `<div class="worker-row${w.busy ? ' busy' : ''}" data-worker="${i}">` +
            `<span class="worker-id">#${i}</span>` +
            `<span class="worker-state">${w.busy ? 'busy' : 'idle'}</span>` +
            `<span class="worker-bar"><span style="width:${(((w.nodes ?? 0) / maxNodes) * 100).toFixed(1)}%"></span></span>` +
            `<span class="worker-nodes">${(w.nodes ?? 0).toLocaleString('en')}</span>` +
            `<span class="worker-line">${w.busy ? this.lineText(i, w.line) : ''}</span></div>`,
        )
        .join('');
  }

  /** Worker `i`'s line (UCI moves from the searched position) in SAN, or '' if unknown. */
  lineText(i, uci) {
    const position = this.searchedPosition();
    if (typeof uci !== 'string' || !uci || !position) return '';
    const key = `${position.fen} ${(position.moves ?? []).join(' ')} | ${uci}`;
    if (this.shownLines[i]?.key !== key) {
      const played = position.moves ?? [];
      this.shownLines[i] = { key, san: playUciLine(position.fen, [...played, ...uci.split(' ')]).san.slice(played.length).join(' ') };
    }
    return this.shownLines[i].san;
  }
}
