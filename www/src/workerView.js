// A small live view of the engine's real workers: one row per worker with its state
// (busy or idle) and its node count, fed by the structured events the engine worker posts.

export class WorkerView {
  constructor(el) {
    this.el = el;
    /** latest worker records, by index */
    this.workers = [];
    this.renderQueued = false;
    this.el.innerHTML = '<p class="worker-empty">Worker activity appears here while the engine thinks.</p>';
  }

  /** Takes one structured event from the engine worker; other event types are ignored. */
  receive(event) {
    if (event?.type !== 'workers' || !Array.isArray(event.workers)) return;
    this.workers = event.workers;
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  render() {
    const maxNodes = Math.max(1, ...this.workers.map((w) => w.nodes ?? 0));
    this.el.innerHTML =
      `<div class="worker-summary">${this.workers.filter((w) => w.busy).length} of ${this.workers.length} busy</div>` +
      this.workers
        .map(
          (w, i) =>
            `<div class="worker-row${w.busy ? ' busy' : ''}" data-worker="${i}">` +
            `<span class="worker-id">#${i}</span>` +
            `<span class="worker-state">${w.busy ? 'busy' : 'idle'}</span>` +
            `<span class="worker-bar"><span style="width:${(((w.nodes ?? 0) / maxNodes) * 100).toFixed(1)}%"></span></span>` +
            `<span class="worker-nodes">${(w.nodes ?? 0).toLocaleString('en')}</span></div>`,
        )
        .join('');
  }
}
