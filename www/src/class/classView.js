// The Class view: a lecture's class as the parallel computer. The lecturer's tab creates a
// session at the relay and shows its link and QR code, who has joined, the search form, each
// processor's nodes and state, the result, and the class drawn live from the relay's trace
// (on the virtual network the search runs on, if the lecturer picked one), replayable once
// the search is over.
// A student's tab (opened by the link, `#class?code=…`) joins at once and shows which
// processor it is, the searched position and its own node count.
//
// One state object (below, each field explained) is changed only by `receive` (the class
// worker's messages, classClient.js) and the user's buttons; `render` writes it to the page.
import './class.css';
import QRCode from 'qrcode';
import { Chess, DEFAULT_POSITION, validateFen } from 'chess.js';
import { Board } from '../board.js';
import { lineToSan } from '../game.js';
import { ClassClient } from './classClient.js';
import { formatMs, formatNodes, readScore, uciScoreText, whiteScoreText } from './classFormat.js';
import { defaultRelayUrl, isRelayUrl, joinLink, readClassHash } from './classLink.js';
import { ClassMap, KIND_COLORS, STATE_COLORS } from './classMap.js';
import { Recording } from './classRecording.js';
import { ClassReplay } from './classReplay.js';
import { CLASS_ALGORITHMS, CLASS_NETWORKS, MAX_DEPTH, POWER_OF_TWO_NETWORKS, classHtml } from './template.js';

/** A fresh state: nobody in a class. */
function initialState() {
  return {
    /** 'none' (not in a class), 'lecturer' (owns the session), 'student' */
    role: 'none',
    /** 'idle', 'connecting' (worker starting, socket opening), 'open', 'closed' (the session is over) */
    phase: 'idle',
    /** the session's code (32 hex digits) once created or joined */
    code: null,
    /** the relay's WebSocket address */
    relay: null,
    /** this tab's member number in the session */
    member: null,
    /** lecturer: the live member numbers (0 = the lecturer) */
    members: [],
    /** student: joined while a search ran, takes part in the next */
    waiting: false,
    /** the running or last search: {search, processor, processors, members, network, fen, algorithm, depth, pure} */
    search: null,
    /** whether `search` is still running */
    searching: false,
    /** per processor of `search`: {nodes, busy, lost, line}; a student's holds its own only
     *  (line: the first plies of the line it is on, UCI moves from the root, or null) */
    processors: [],
    /** student: the other processors of the running search that were lost */
    lost: [],
    /** lecturer: the last `info` of the running search */
    info: null,
    /** lecturer: the last search's `result` plus its fen, or null */
    result: null,
    /** why the session closed, for the status line */
    closedReason: null,
    /** the error to show (the worker's, the relay's, the form's), or null */
    error: null,
  };
}

export class ClassView {
  /**
   * @param {{ root: HTMLElement, isolated: boolean, location?: Location }} options
   *   isolated: whether the page is cross-origin isolated (a lecturer's tab needs threads;
   *   a student's runs the single build otherwise)
   */
  constructor({ root, isolated, location = window.location }) {
    this.root = root;
    this.isolated = isolated;
    this.location = location;
    this.state = initialState();
    this.visible = false;
    root.innerHTML = classHtml();
    const $ = (selector) => root.querySelector(selector);
    this.el = {
      status: $('.class-status'), error: $('.class-error'), heading: $('.class-heading'), info: $('.class-info'), result: $('.class-result'),
      link: $('.class-link'), qr: $('.class-qr'), members: $('.class-members'), memberCount: $('.class-member-count'),
      form: $('.class-form'), start: $('[data-class="start"]'), relay: $('[name="class-relay"]'), create: $('[data-class="create"]'),
      processors: $('.class-processors tbody'), studentBoard: $('.class-student-board'), studentLeave: $('.class-stage [data-class="leave"]'), ownNodes: $('.class-own-nodes'), legend: $('.class-legend'),
    };
    this.el.relay.value = defaultRelayUrl(location);
    this.studentBoard = new Board($('.class-board'), { onMove: () => {}, onCancel: () => {} });
    this.lecturerBoard = new Board($('.class-lecturer-board'), { onMove: () => {}, onCancel: () => {} });
    this.map = new ClassMap($('.class-map'));
    this.replay = new ClassReplay(root, this.map);
    /** lecturer: the trace of the running or last search, kept for its replay */
    this.recording = null;
    this.client = new ClassClient({ onMessage: (message) => this.receive(message) });
    this.el.legend.innerHTML = legendHtml();
    this.wire();
    this.render();
  }

  wire() {
    this.el.create.addEventListener('click', () => this.create());
    for (const button of this.root.querySelectorAll('[data-class="leave"]')) button.addEventListener('click', () => this.leave());
    this.root.querySelector('[data-class="copy-link"]').addEventListener('click', () => this.copyLink());
    this.el.qr.addEventListener('click', () => this.el.qr.classList.toggle('large'));
    this.el.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.start();
    });
    this.el.form.addEventListener('input', () => {
      if (this.state.error?.form) this.setError(null);
    });
  }

  /** Shows or hides the view (main.js, on a change of view). */
  show(visible) {
    this.visible = visible;
    this.map.show(visible && this.state.role === 'lecturer');
    if (!visible) this.replay.pause();
    if (visible) {
      this.render();
      this.boardsShow();
    } else this.clearBoards();
  }

  /**
   * Follows the page's `#class…` address: a code joins that session as a student (leaving
   * any other class first); `#class` alone just opens the view.
   */
  followLink() {
    const { code, relay, error } = readClassHash(this.location.hash, this.location);
    if (error) {
      this.setError({ message: error });
      return;
    }
    if (!code || (this.state.role === 'student' && this.state.code === code && this.state.phase !== 'closed')) return;
    if (this.state.role === 'lecturer' && this.state.phase !== 'closed' && this.state.code === code) return;
    this.join(code, relay);
  }

  // --- the user's actions ------------------------------------------------------------

  create() {
    const relay = this.el.relay.value.trim() || defaultRelayUrl(this.location);
    if (!isRelayUrl(relay)) {
      this.setError({ message: `The relay's address "${relay}" is not a ws:// or wss:// address.`, form: true });
      return;
    }
    this.begin('lecturer', relay, null);
    this.client.open({ class: 'create', url: relay });
  }

  join(code, relay) {
    this.begin('student', relay, code);
    this.client.open({ class: 'join', url: relay, code });
  }

  begin(role, relay, code) {
    this.client.end();
    this.awaitingSearch = false;
    this.note = null;
    this.clearBoards();
    this.state = { ...initialState(), role, relay, code, phase: 'connecting' };
    this.forgetSearch();
    this.map.setNodes([], { reset: true });
    this.map.show(this.visible && role === 'lecturer');
    this.render();
  }

  leave() {
    this.client.leave();
    const { role } = this.state;
    this.state = initialState();
    this.note = null;
    this.clearBoards();
    this.forgetSearch();
    this.map.show(false);
    // A student's address named the class it left: reopening the page must not join again.
    if (role === 'student' && this.location.hash.startsWith('#class?')) history.replaceState(null, '', `${this.location.pathname}${this.location.search}#class`);
    this.render();
  }

  start() {
    const form = this.el.form.elements;
    const algorithm = form['class-algorithm'].value;
    const depth = Number(form['class-depth'].value);
    const fen = form['class-fen'].value.trim() || DEFAULT_POSITION;
    const pure = form['class-pure'].checked;
    const network = form['class-network'].value;
    if (!CLASS_ALGORITHMS.some(([a]) => a === algorithm)) return this.setError({ message: `Unknown algorithm ${algorithm}.`, form: true });
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) return this.setError({ message: `The depth must be a whole number from 1 to ${MAX_DEPTH}.`, form: true });
    const check = validateFen(fen);
    if (!check.ok) return this.setError({ message: `That FEN is not a legal position: ${check.error}`, form: true });
    if (new Chess(fen).isGameOver()) return this.setError({ message: 'The game is over in that position: there is nothing to search.', form: true });
    if (!CLASS_NETWORKS.some(([n]) => n === network)) return this.setError({ message: `Unknown network ${network}.`, form: true });
    if (this.state.role !== 'lecturer' || this.state.phase !== 'open' || this.state.searching) return;
    // The relay refuses such a start too; said here, before the class waits for it.
    const processors = this.state.members.length;
    if (POWER_OF_TWO_NETWORKS.includes(network) && (processors & (processors - 1)) !== 0) {
      const missing = 2 ** Math.ceil(Math.log2(processors)) - processors;
      const wait = `wait for ${missing} more student${missing === 1 ? '' : 's'}`;
      return this.setError({ message: `A ${networkName(network)} network has a power of two processors (1, 2, 4, 8, …); the class has ${processors}. Pick another network, or ${wait}.`, form: true });
    }
    this.setError(null);
    this.pendingSearch = { algorithm, depth, fen, pure, network };
    this.state.result = null;
    this.state.info = null;
    this.state.searching = true; // until the relay's `search` (or an error) says otherwise
    this.awaitingSearch = true;
    this.client.post({ class: 'start', algorithm, depth, fen, pure, ...(network ? { network } : {}) });
    this.render();
  }

  async copyLink() {
    const link = this.el.link.href;
    try {
      await navigator.clipboard.writeText(link);
      this.setStatusNote('The link is copied.');
    } catch {
      const range = document.createRange();
      range.selectNodeContents(this.el.link);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      this.setStatusNote('Copy the selected link (Ctrl+C).');
    }
  }

  setStatusNote(text) {
    this.note = text;
    this.render();
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => {
      this.note = null;
      this.render();
    }, 4000);
  }

  setError(error) {
    this.state.error = error;
    this.render();
  }

  // --- the worker's messages -----------------------------------------------------------

  /** One message of the class worker (classClient.js lists them). */
  receive(message) {
    const s = this.state;
    switch (message.class) {
      case 'created':
        s.phase = 'open';
        s.code = message.code;
        s.member = message.member ?? 0;
        s.members = [s.member];
        this.showInvite();
        break;
      case 'joined':
        s.phase = 'open';
        s.member = message.member;
        break;
      case 'waiting':
        s.waiting = true;
        break;
      case 'members':
        s.members = Array.isArray(message.members) ? message.members : [];
        break;
      case 'search':
        this.searchBegan(message);
        break;
      case 'activity':
        this.activity(message.processors);
        break;
      case 'info':
        s.info = message;
        break;
      case 'result':
        s.result = { ...message, fen: s.search?.fen ?? this.pendingSearch?.fen ?? null };
        s.searching = false;
        for (const p of s.processors) p.busy = false;
        this.boardsShow();
        this.replay.offer(this.recording);
        break;
      case 'ended':
        s.searching = false;
        s.waiting = false;
        for (const p of s.processors) p.busy = false;
        this.replay.offer(this.recording);
        break;
      case 'lost':
        // A notice of an earlier search names a processor that may be somebody else now.
        if (s.search?.search !== message.search) break;
        if (s.processors[message.processor]) s.processors[message.processor].lost = true;
        else if (s.searching && Number.isInteger(message.processor)) s.lost.push(message.processor);
        break;
      case 'closed':
        this.closed(message.reason ?? null);
        break;
      case 'error':
        this.failed(message.message);
        break;
      case 'trace':
        if (!Array.isArray(message.events)) break;
        this.recording?.add(message.events, performance.now());
        this.map.trace(message.events);
        // Frames of a search that is over still arrive (the relay sends its trace every 100 ms).
        if (!s.searching) this.replay.offer(this.recording);
        break;
      case 'position':
        // The searched position, where the worker sends it apart from `search`.
        if (s.search && typeof message.fen === 'string') {
          s.search.fen = message.fen;
          this.boardsShow();
        }
        break;
      default:
        return;
    }
    this.render();
  }

  searchBegan(message) {
    const s = this.state;
    this.awaitingSearch = false;
    const own = s.role === 'lecturer' ? this.pendingSearch : null;
    s.search = {
      search: message.search,
      processor: message.processor,
      processors: message.processors,
      members: Array.isArray(message.members) ? message.members : [],
      fen: message.fen ?? own?.fen ?? null,
      algorithm: message.algorithm ?? own?.algorithm ?? null,
      depth: message.depth ?? own?.depth ?? null,
      pure: message.pure ?? own?.pure ?? null,
      network: message.network ?? null,
    };
    s.searching = true;
    s.waiting = false;
    s.info = null;
    s.lost = [];
    if (s.role === 'lecturer') s.result = null;
    const count = s.role === 'lecturer' ? message.processors : 1;
    s.processors = Array.from({ length: count }, () => ({ nodes: 0, busy: true, lost: false, line: null }));
    if (s.role === 'lecturer') {
      const { search, processors, members, network, fen, algorithm, depth, pure } = s.search;
      this.recording = new Recording({ search, processors, members, network, fen, algorithm, depth, pure });
      this.replay.offer(null);
      this.map.setNetwork(network, message.drawing ?? null);
    }
    this.map.setNodes(this.mapNodes(), { reset: true });
    this.boardsShow();
  }

  activity(processors) {
    const s = this.state;
    if (!Array.isArray(processors)) return;
    processors.forEach((p, i) => {
      const mine = s.processors[i];
      if (!mine || !p) return;
      if (Number.isFinite(p.nodes)) mine.nodes = p.nodes;
      if (!mine.lost && s.searching) mine.busy = Boolean(p.busy);
      mine.line = s.searching && typeof p.line === 'string' ? p.line : null;
    });
  }

  /** The session is over for this tab (the relay closed it, or it could not be opened). */
  closed(reason) {
    const s = this.state;
    this.client.end();
    this.note = null;
    if (s.role === 'lecturer') {
      // Back to the start, where a new class can be created; the reason stays on screen.
      this.state = { ...initialState(), phase: 'closed', closedReason: reason, error: s.error };
      this.clearBoards();
      this.forgetSearch();
      this.map.show(false);
      return;
    }
    s.phase = 'closed';
    s.searching = false;
    s.closedReason = reason;
    for (const p of s.processors) p.busy = false;
  }

  failed(message) {
    const s = this.state;
    const text = String(message || 'the class engine reported an error');
    s.error = { message: text.charAt(0).toUpperCase() + text.slice(1) };
    // Before the session is open an error ends the attempt (isolation, relay refused, bad
    // code); after it, the relay refused one request (a start during a search) and the
    // class goes on.
    if (s.phase === 'connecting') {
      this.closed(null);
      return;
    }
    if (this.awaitingSearch) {
      // The relay or the worker refused the start: no search runs.
      this.awaitingSearch = false;
      s.searching = false;
    }
  }

  // --- what the page shows ------------------------------------------------------------

  showInvite() {
    const link = joinLink(this.location, this.state.code, this.state.relay);
    this.el.link.href = link;
    this.el.link.textContent = link;
    this.el.qr.dataset.text = link;
    QRCode.toCanvas(this.el.qr, link, { errorCorrectionLevel: 'M', margin: 2, width: 480, color: { dark: '#000000', light: '#ffffff' } })
      // The package sizes the canvas's box too; the style sheet does that here (and enlarges it on a click).
      .then(() => this.el.qr.removeAttribute('style'))
      .catch((e) => this.setError({ message: `The QR code could not be drawn: ${e.message ?? e}` }));
  }

  /** No search to draw or replay any more (the class is left or over). */
  forgetSearch() {
    this.recording = null;
    this.replay.offer(null);
    this.map.setNetwork(null, null);
  }

  /** Takes the arrows off before the boards are hidden: chessground cannot draw them at size 0. */
  clearBoards() {
    this.lecturerBoard.setArrows([]);
    this.studentBoard.setArrows([]);
  }

  /** The searched position on this side's board (with the best move once there is one). */
  boardsShow() {
    const s = this.state;
    if (s.role === 'student') this.studentBoardShows(s.search?.fen);
    else if (s.role === 'lecturer') this.lecturerBoardShows(s.result?.fen ?? s.search?.fen, s.result?.bestmove);
  }

  studentBoardShows(fen) {
    if (!fen) return;
    try {
      this.studentBoard.show(new Chess(fen), { movable: null });
    } catch {}
  }

  lecturerBoardShows(fen, bestmove) {
    if (!fen) return;
    try {
      this.lecturerBoard.show(new Chess(fen), { movable: null });
      const move = typeof bestmove === 'string' && /^[a-h][1-8][a-h][1-8]/.test(bestmove) ? bestmove : null;
      // Arrows only on a board on screen: chessground cannot place them on a hidden one.
      this.lecturerBoard.setArrows(move && this.visible ? [{ orig: move.slice(0, 2), dest: move.slice(2, 4), brush: 'green' }] : []);
    } catch {}
  }

  /** The map's nodes: the search's processors, or the members before a search. */
  mapNodes() {
    const s = this.state;
    if (s.search) {
      return s.processors.map((p, i) => ({
        label: String(i),
        sub: s.search.members[i] === 0 ? 'lecturer' : `member ${s.search.members[i] ?? '?'}`,
        state: p.lost ? 'lost' : s.searching ? (p.busy ? 'busy' : 'waiting') : 'idle',
        nodes: p.nodes,
      }));
    }
    return s.members.map((m) => ({ label: String(m), sub: m === 0 ? 'lecturer' : `member ${m}`, state: 'idle' }));
  }

  render() {
    const s = this.state;
    this.root.dataset.role = s.role;
    this.root.dataset.phase = s.phase;
    this.root.dataset.searching = String(s.searching);
    for (const key of ['processor', 'processors', 'search']) delete this.root.dataset[key];
    if (s.search) this.root.dataset.search = String(s.search.search);
    this.el.status.textContent = this.note ?? this.statusText();
    this.el.error.hidden = !s.error;
    this.el.error.textContent = s.error?.message ?? '';
    this.el.create.disabled = s.phase === 'connecting' || (s.role !== 'none' && s.phase === 'open');
    this.el.start.disabled = !(s.role === 'lecturer' && s.phase === 'open' && !s.searching);
    this.el.start.textContent = s.searching ? 'Searching…' : 'Start';
    if (s.role === 'lecturer') this.renderLecturer();
    if (s.role === 'student') this.renderStudent();
  }

  statusText() {
    const s = this.state;
    if (s.role === 'none') {
      if (!this.isolated) return s.error ? '' : 'This page is not cross-origin isolated, so it cannot lead a class (the lecturer\'s tab needs threads: open it on localhost or over HTTPS); it can join one by a student\'s link.';
      if (s.phase === 'closed' && !s.error) return `Your class was closed${s.closedReason ? ` (${s.closedReason})` : ''}. Create a new one to go on.`;
      return 'Create a class, then show your students the link or the QR code.';
    }
    if (s.phase === 'connecting') return s.role === 'lecturer' ? 'Starting the class engine and opening the session at the relay…' : 'Joining the class…';
    if (s.phase === 'closed') {
      if (s.error) return 'Not in a class.';
      return `The class is over${s.closedReason ? ` (${s.closedReason})` : ''}.`;
    }
    const search = s.search;
    if (s.role === 'student') {
      if (s.waiting) return 'A search is running: you take part in the next one.';
      if (search && s.searching) {
        const lost = s.lost.length === 0 ? '' : ` Processor${s.lost.length === 1 ? '' : 's'} ${s.lost.join(', ')} left: ${s.lost.length === 1 ? 'its' : 'their'} work is searched again.`;
        return `Searching ${describeSearch(search)}.${lost}`;
      }
      if (search) return `Search ${search.search} is over: you were processor ${search.processor} of ${search.processors}.`;
      return `You are in the class (member ${s.member}). Waiting for the lecturer to start a search…`;
    }
    if (s.searching && search) return `Search ${search.search}: ${describeSearch(search)} on ${search.processors} processor${search.processors === 1 ? '' : 's'}${search.network ? ` wired as ${networkName(search.network)}` : ''}…`;
    if (s.searching) return 'Starting the search…';
    const students = s.members.filter((m) => m !== 0).length;
    return `${students === 0 ? 'Nobody has joined yet' : `${students} student${students === 1 ? '' : 's'} joined`}: the next search runs on ${students + 1} processor${students === 0 ? '' : 's'}.`;
  }

  renderLecturer() {
    const s = this.state;
    const inSearch = new Set(s.searching && s.search ? s.search.members : []);
    const students = s.members.filter((m) => m !== 0);
    this.el.memberCount.textContent = `(${students.length} student${students.length === 1 ? '' : 's'})`;
    this.el.members.replaceChildren(
      ...s.members.map((m) => {
        const item = document.createElement('li');
        item.dataset.member = String(m);
        const waiting = s.searching && s.search && !inSearch.has(m);
        item.textContent = m === 0 ? 'You (member 0)' : `Member ${m}`;
        if (waiting) {
          item.classList.add('waiting');
          item.append(Object.assign(document.createElement('span'), { textContent: ' · next search' }));
        }
        return item;
      }),
    );
    this.renderProcessors();
    this.renderInfo();
    this.renderResult();
    const nodes = this.mapNodes();
    this.map.setNodes(nodes);
    this.recording?.noteStates(nodes.map((n) => n.state), performance.now());
  }

  renderProcessors() {
    const s = this.state;
    const rows = s.processors.map((p, i) => {
      const row = document.createElement('tr');
      const state = p.lost ? 'lost' : s.searching ? (p.busy ? 'busy' : 'waiting') : 'done';
      row.dataset.processor = String(i);
      row.dataset.state = state;
      const member = s.search?.members[i];
      const cells = [String(i), member === 0 ? 'you (lecturer)' : `member ${member ?? '?'}`, formatNodes(p.nodes), state, this.lineText(p.line)];
      for (const text of cells) row.append(Object.assign(document.createElement('td'), { textContent: text }));
      row.children[2].dataset.nodes = String(p.nodes);
      if (p.line !== null) row.children[4].dataset.line = p.line;
      return row;
    });
    this.el.processors.replaceChildren(...rows);
  }

  /** A processor's line as the table shows it: SAN from the search's position ("root"
   * for the root itself, "" for none). */
  lineText(line) {
    const fen = this.state.search?.fen;
    if (line === null || !fen) return '';
    if (line === '') return 'root';
    return lineToSan(fen, line.split(' ')).join(' ');
  }

  renderInfo() {
    const { info, searching } = this.state;
    if (!info || !searching) {
      this.el.info.textContent = '';
      return;
    }
    const score = readScore(info.score);
    const parts = [`depth ${info.depth}`, score ? uciScoreText(score) : null, `${formatNodes(info.nodes)} nodes`, info.pv ? `pv ${Array.isArray(info.pv) ? info.pv.join(' ') : info.pv}` : null];
    this.el.info.textContent = parts.filter(Boolean).join(' · ');
  }

  renderResult() {
    const { result } = this.state;
    const el = this.el.result;
    if (!result) {
      el.textContent = '';
      delete el.dataset.score;
      delete el.dataset.bestmove;
      return;
    }
    const score = readScore(result.score);
    el.dataset.score = uciScoreText(score);
    el.dataset.bestmove = result.bestmove ?? '';
    el.replaceChildren(
      ...[
        ['Best move', `${sanOf(result.fen, result.bestmove)}${result.bestmove ? ` (${result.bestmove})` : ''}`],
        ['Score', `${whiteScoreText(score, result.fen)} (${uciScoreText(score) || '–'})`],
        ['Depth', String(result.depth ?? '–')],
        ['Nodes', formatNodes(result.nodes)],
        ['Time', formatMs(result.ms)],
      ].map(([name, value]) => {
        const item = document.createElement('span');
        item.append(Object.assign(document.createElement('b'), { textContent: `${name} ` }), value);
        return item;
      }),
    );
  }

  renderStudent() {
    const s = this.state;
    const search = s.search;
    let heading = 'Joining the class…';
    if (s.phase === 'closed') heading = s.error ? 'Could not join the class' : 'The lecturer left';
    else if (s.waiting) heading = 'Waiting for the next search';
    else if (search && s.searching) heading = `Processor ${search.processor} of ${search.processors}`;
    else if (search) heading = 'Waiting for the next search';
    else if (s.phase === 'open') heading = 'Waiting for the lecturer';
    this.el.heading.textContent = heading;
    this.el.studentLeave.textContent = s.phase === 'closed' ? 'Close' : 'Leave the class';
    if (search) {
      this.root.dataset.processor = String(search.processor);
      this.root.dataset.processors = String(search.processors);
    }
    // The relay's roster does not name the position: the board shows only one the worker sent.
    this.el.studentBoard.hidden = !search?.fen;
    const own = s.processors[0];
    this.el.ownNodes.textContent = own && search ? `${formatNodes(own.nodes)} nodes searched in search ${search.search}${s.searching ? (own.busy ? ' · busy' : ' · waiting for work') : ''}` : '';
    if (own) this.el.ownNodes.dataset.nodes = String(own.nodes);
  }
}

/** "ybwc, depth 4, Pure" for the status line (only the parts known). */
function describeSearch(search) {
  return [search.algorithm, search.depth ? `depth ${search.depth}` : null, search.pure ? 'Pure' : null].filter(Boolean).join(', ') || 'the position';
}

/** A network's name as the form lists it. */
function networkName(network) {
  return CLASS_NETWORKS.find(([n]) => n === network)?.[1] ?? network;
}

/** The SAN of a UCI move in `fen`, or the UCI text when it cannot be read. */
function sanOf(fen, uci) {
  if (!uci) return 'none';
  try {
    const chess = new Chess(fen);
    return chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] }).san;
  } catch {
    return uci;
  }
}

function legendHtml() {
  const states = Object.entries({ busy: 'busy', waiting: 'waiting for work', lost: 'lost', idle: 'no search' })
    .map(([key, text]) => `<span><i style="background:${STATE_COLORS[key]}"></i>${text}</span>`)
    .join('');
  const kinds = [
    ['program', 'work, results, bounds'],
    ['table-request', 'table'],
    ['start', 'start, finished'],
    ['done', 'done'],
  ]
    .map(([kind, text]) => `<span><b style="border-color:${KIND_COLORS[kind]}"></b>${text}</span>`)
    .join('');
  return `<div>${states}</div><div>Frames the relay delivers: ${kinds}</div><div>On a network, drawn as the Lab draws it: a frame's dot runs along its route's hops, the links it crosses white.</div>`;
}
