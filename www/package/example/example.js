// @ts-check
// The example page of the meshmate package: starts the engine worker, sends UCI over
// postMessage and shows the events it posts, each with its UCI line. No framework, no bundler:
// serve the package's folder (with COOP/COEP for the threaded build) and open this page.

/** @typedef {import('../index.d.ts').EngineWorker} EngineWorker */
/** @typedef {import('../index.d.ts').EngineEvent} EngineEvent */
/** @typedef {import('../index.d.ts').InfoEvent} InfoEvent */
/** @typedef {import('../index.d.ts').WorkerActivity} WorkerActivity */

const engine = /** @type {EngineWorker} */ (new Worker(new URL('../engine/worker.js', import.meta.url), { type: 'module' }));

/** @param {string} selector */
function element(selector) {
  const found = document.querySelector(selector);
  if (!(found instanceof HTMLElement)) throw new Error(`the page lacks ${selector}`);
  return found;
}
const form = /** @type {HTMLFormElement} */ (element('#search'));
const log = element('#log');

engine.onmessage = ({ data }) => {
  if (typeof data === 'string') return; // a bare UCI line comes only with ?events=0
  if ('line' in data) {
    log.textContent += data.line + '\n';
    log.scrollTop = log.scrollHeight;
  }
  show(data);
};

/** @param {EngineEvent} event */
function show(event) {
  switch (event.type) {
    case 'engine':
      // Search on every worker of the pool (the Threads option starts at 1).
      if (event.build === 'threads') engine.postMessage(`setoption name Threads value ${event.poolThreads}`);
      element('#build').textContent =
        event.build === 'threads'
          ? `threaded build: a pool of ${event.poolThreads} web workers, loaded in ${event.loadMs} ms`
          : `single-thread build (this page is not cross-origin isolated), loaded in ${event.loadMs} ms`;
      break;
    case 'info':
      if (event.depth !== undefined && event.pv.length > 0) addInfo(event);
      break;
    case 'bestmove':
      element('#best').textContent = `bestmove ${event.best}${event.ponder ? ` (expects ${event.ponder})` : ''}`;
      break;
    case 'workers':
      showWorkers(event.workers);
      break;
    case 'crashed':
      element('#build').textContent = `the engine crashed (${event.reason}): reload the page`;
      break;
  }
}

/** @param {InfoEvent} info */
function addInfo(info) {
  const score = info.scoreMate !== undefined ? `mate ${info.scoreMate}` : `${((info.scoreCp ?? 0) / 100).toFixed(2)}`;
  const row = document.createElement('tr');
  for (const text of [String(info.depth), score, String(info.nodes ?? ''), String(info.nps ?? ''), info.pv.join(' ')]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  /** @type {HTMLElement} */ (row.lastElementChild).className = 'pv';
  element('#infos').prepend(row);
}

/** @param {WorkerActivity[]} workers */
function showWorkers(workers) {
  const most = Math.max(1, ...workers.map((w) => w.nodes));
  element('#workers').replaceChildren(
    ...workers.flatMap((w, i) => {
      const name = document.createElement('span');
      name.textContent = `worker ${i}`;
      const bar = document.createElement('div');
      bar.className = w.busy ? 'bar busy' : 'bar';
      const fill = document.createElement('div');
      fill.style.width = `${(100 * w.nodes) / most}%`;
      bar.append(fill);
      const nodes = document.createElement('span');
      nodes.textContent = `${w.nodes} nodes`;
      return [name, bar, nodes];
    }),
  );
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const data = new FormData(form);
  element('#best').textContent = '';
  element('#infos').replaceChildren();
  engine.postMessage('stop');
  engine.postMessage(String(data.get('position')));
  engine.postMessage(`go depth ${data.get('depth')}`);
});
element('button[name=stop]').addEventListener('click', () => engine.postMessage('stop'));

engine.postMessage('uci');
engine.postMessage('isready');
