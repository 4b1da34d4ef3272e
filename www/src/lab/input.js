// The Lab's controls and keyboard: the buttons, the pointer over the network and the tree,
// the replay's keys (Space, →, Shift+→) and full screen. Each handler calls the part that
// does the work; a lecture's own keys are in lectureMode.js.
import { experimentHash } from './experimentLink.js';
import { download, downloadCsv, downloadPng, tableCsv } from './exports.js';
import { describeNode } from './treeView.js';
import { COLUMNS } from './resultsTable.js';
import { PRESETS } from './reproduce.js';
import { presetButton } from './template.js';

/** The methods this part adds to the Lab (lab.js); `this` is the Lab and its state (state.js). */
export const Input = {
  /** Every button of the Lab, each to the part that does its work. */
  wireButtons() {
    const on = (name, handler) => this.root.querySelector(`[data-lab="${name}"]`).addEventListener('click', handler);
    on('run', () => {
      this.showNotice('');
      this.leaveLecture();
      this.run();
    });
    for (const button of this.root.querySelectorAll('[data-lecture]')) button.addEventListener('click', () => this.startLecture(button.dataset.lecture));
    on('restart', () => this.run(this.lastRequest));
    on('pause', () => this.setRunning(!this.running));
    on('step', () => this.step());
    on('step-node', () => this.stepNode());
    on('present', (e) => {
      const on = document.body.classList.toggle('lab-presenting');
      e.currentTarget.setAttribute('aria-pressed', String(on));
      this.charts?.resize();
      this.sweepCharts?.resize();
      this.breakEven?.resize();
    });
    for (const preset of PRESETS) on(presetButton(preset), () => this.reproduce(preset));
    on('threads', () => (this.threads && !this.threads.ended ? this.stopThreads() : this.watchThreads()));
    on('measure', () => (this.device ? this.device.stop() : this.measureOnDevice()));
    on('export-trace', async () => {
      try {
        download(await this.client.exportTrace(), `meshmate-trace-${this.fileStem()}.jsonl`);
      } catch (error) {
        this.setStatus('error', error.message);
      }
    });
    on('export-csv', () => downloadCsv(this.table.columns, this.tableRows, `meshmate-table-${this.fileStem()}.csv`));
    on('export-png', () => downloadPng(this.el.canvas, `meshmate-network-${this.fileStem()}.png`));
    on('scaling', () => this.drawScalingCurve());
    on('scaling-png', async () => download(await this.scaling.png(), `meshmate-scaling-${this.fileStem()}.png`));
    on('scaling-csv', () => download(new Blob([tableCsv(COLUMNS, this.scalingRows)], { type: 'text/csv' }), `meshmate-scaling-${this.fileStem()}.csv`));
    on('copy-link', async () => {
      const link = new URL(experimentHash(this.controls.values()), location.href).href;
      try {
        await navigator.clipboard.writeText(link);
        this.setStatus(this.root.dataset.status, `Copied ${link}`);
      } catch {
        this.setStatus(this.root.dataset.status, `The browser refused the clipboard; the link is ${link}`);
      }
    });
  },

  /** The network canvas: a tooltip on the processor under the pointer; a click selects it. */
  wireCanvas() {
    const { canvas, tooltip } = this.el;
    const at = (e) => {
      const box = canvas.getBoundingClientRect();
      return [e.clientX - box.left, e.clientY - box.top];
    };
    canvas.addEventListener('mousemove', (e) => {
      const [x, y] = at(e);
      const p = this.view.processorAt(x, y);
      tooltip.hidden = p === null || !this.playback;
      if (tooltip.hidden) return;
      const c = this.playback.processor(p);
      tooltip.textContent = `${this.view.processorName(p)}${p === this.view.drawing.host ? ' (host)' : ''} · ${c.state} · ${c.nodes} nodes · sent ${c.sent} · received ${c.received}`;
      const subtree = this.subtreeText(p);
      if (subtree) tooltip.append(document.createElement('br'), subtree);
      tooltip.style.left = `${x + 14}px`;
      tooltip.style.top = `${y + 10}px`;
    });
    canvas.addEventListener('mouseleave', () => (tooltip.hidden = true));
    canvas.addEventListener('click', (e) => {
      const p = this.view.processorAt(...at(e));
      this.select(p === this.view.selected ? null : p);
    });
  },

  /** The tree canvas: a tooltip on the node under the pointer. */
  wireTree() {
    const { tree, treeTooltip } = this.el;
    tree.addEventListener('mousemove', (e) => {
      const box = tree.getBoundingClientRect();
      const [x, y] = [e.clientX - box.left, e.clientY - box.top];
      const node = this.treeView.nodeAt(x, y);
      treeTooltip.hidden = !node || node.owner === null;
      if (treeTooltip.hidden) return;
      treeTooltip.textContent = describeNode(node);
      treeTooltip.style.left = `${Math.min(x + 14, box.width - 260)}px`;
      treeTooltip.style.top = `${y + 12}px`;
    });
    tree.addEventListener('mouseleave', () => (treeTooltip.hidden = true));
  },

  /** The replay's keys: Space pauses or plays, → steps an event, Shift+→ a node. */
  key(e) {
    if (!this.visible || e.target.closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === ' ') {
      e.preventDefault();
      this.setRunning(!this.running);
    } else if (e.key === 'ArrowRight' && e.shiftKey) {
      e.preventDefault();
      this.stepNode();
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      this.step();
    }
  },

  /** Full screen for the Lab (where the browser allows it) with presentation mode's large type. */
  toggleFullScreen() {
    const on = !document.body.classList.contains('lab-presenting');
    document.body.classList.toggle('lab-presenting', on);
    this.root.querySelector('[data-lab="present"]').setAttribute('aria-pressed', String(on));
    if (on && !document.fullscreenElement) this.root.requestFullscreen?.().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    this.charts?.resize();
    this.sweepCharts?.resize();
    this.breakEven?.resize();
  },
};
