// Types of the meshmate engine worker's messages (engine/worker.js). The worker is started
// with `new Worker(url, { type: 'module' })`; it takes UCI command lines as strings. Each
// report it makes is one message: an event (a plain object with a `type`, and its UCI text
// as `line`), or, when the worker URL has `?events=0`, the UCI line alone as a string, as
// stockfish.js posts it. The events of UCI lines are the values the engine wrote each line
// from (crate/uci/report.rs), never parsed back from the text; `engine`, `workers` and
// `crashed` come from the worker (`workers` from crate/wasm/activity.rs).

/** What the page posts to the worker: one UCI command line (or several, separated by "\n"). */
export type EngineCommand = string;

/** What the worker posts to the page: an event, or (`?events=0`) a UCI output line. */
export type EngineOutput = EngineEvent | string;

/** Every event, told apart by `type`. */
export type EngineEvent =
  | EngineStartedEvent
  | IdNameEvent
  | IdAuthorEvent
  | OptionEvent
  | UciokEvent
  | ReadyokEvent
  | TextEvent
  | InfoEvent
  | InfoStringEvent
  | BestmoveEvent
  | BenchEvent
  | SpeedupEvent
  | SpeedupDoneEvent
  | WorkersEvent
  | CrashedEvent;

/** Every event of a report carries the UCI text written from it. */
export interface Reported {
  /** The UCI line, exactly as the worker posts it with `?events=0`. */
  line: string;
}

/** The wasm is loaded and commands are taken (posted once, before any answer);
 * `line` is `info string meshmate wasm: ...`. */
export interface EngineStartedEvent extends Reported {
  type: 'engine';
  /** `threads` on cross-origin isolated pages, else `single` (one thread, Threads fixed at 1). */
  build: 'threads' | 'single';
  /** Web workers in the search pool (1 for the single build). */
  poolThreads: number;
  /** Whether the page is cross-origin isolated (COOP/COEP headers). */
  isolated: boolean;
  /** Milliseconds from the worker's start until the engine was ready. */
  loadMs: number;
}

/** The engine's name (`id name ...`), the first answer to `uci`. */
export interface IdNameEvent extends Reported {
  type: 'idName';
  name: string;
}

/** Its authors (`id author ...`). */
export interface IdAuthorEvent extends Reported {
  type: 'idAuthor';
  author: string;
}

/** One option `uci` declares (`option name ... type ...`). */
export interface OptionEvent extends Reported {
  type: 'option';
  /** The name `setoption` takes. */
  name: string;
  /** The option's UCI type. */
  kind: 'spin' | 'check' | 'combo' | 'button' | 'string';
  /** The value it starts with, as text (absent for a button). */
  default?: string;
  /** A spin's least value. */
  min?: number;
  /** A spin's greatest value. */
  max?: number;
  /** A combo's choices (empty otherwise). */
  vars: string[];
}

/** Every option is declared (`uciok`). */
export interface UciokEvent extends Reported {
  type: 'uciok';
}

/** Every command before `isready` is handled (`readyok`). */
export interface ReadyokEvent extends Reported {
  type: 'readyok';
}

/** A line with no values to read (the bench's per-position lines and totals). */
export interface TextEvent extends Reported {
  type: 'text';
  text: string;
}

/** A search progress report (`info depth ...`); fields the line lacks are absent. */
export interface InfoEvent extends Reported {
  type: 'info';
  /** Nominal depth of the iteration. */
  depth?: number;
  /** Deepest ply reached (selective depth). */
  seldepth?: number;
  /** Line number when several lines are searched (MultiPV). */
  multipv?: number;
  /** Centipawns from the side to move's point of view. */
  scoreCp?: number;
  /** Moves to mate (negative: the side to move gets mated). */
  scoreMate?: number;
  /** Set when the score is only a bound. */
  bound?: 'lower' | 'upper';
  /** Nodes searched so far. */
  nodes?: number;
  /** Nodes per second. */
  nps?: number;
  /** Milliseconds since the search started. */
  timeMs?: number;
  /** Transposition table use, in permille. */
  hashfull?: number;
  /** The root move being searched. */
  currmove?: string;
  /** Its 1-based place in the root's move order (beside `currmove`). */
  currmovenumber?: number;
  /** The principal variation, as UCI moves (empty when the line has none). */
  pv: string[];
}

/** A free-text message (`info string ...`); errors start with `error:`. */
export interface InfoStringEvent extends Reported {
  type: 'message';
  text: string;
}

/** The search result (`bestmove ...`). */
export interface BestmoveEvent extends Reported {
  type: 'bestmove';
  /** The move to play, as a UCI move (`e2e4`, `e7e8q`). */
  best: string;
  /** The expected reply, if any. */
  ponder?: string | null;
}

/** The `bench` summary (`N nodes M nps`). */
export interface BenchEvent extends Reported {
  type: 'bench';
  /** Total nodes: the bench signature, equal to the native engine's. */
  nodes: number;
  nps: number;
}

/** One measured row of a `speedup` command. */
export interface SpeedupEvent extends Reported {
  type: 'speedup';
  /** The row as JSON text (position, algorithm, threads, ms, nodes, speedup, ...). */
  json: string;
}

/** A `speedup` command has finished. */
export interface SpeedupDoneEvent extends Reported {
  type: 'speedupDone';
}

/** What each search processor does: every 250 ms while the engine works, once when it is
 * idle again (no UCI line: not posted with `?events=0`). */
export interface WorkersEvent {
  type: 'workers';
  /** One entry per processor, as many as the Threads option. */
  workers: WorkerActivity[];
}

/** One processor of the search. The single build reports `busy` and `nodes` only. */
export interface WorkerActivity {
  /** Working right now. */
  busy: boolean;
  /** Positions it visited in the current (or last) search. */
  nodes: number;
  /** Milliseconds it worked in the current search. */
  busyMs?: number;
  /** Milliseconds it waited for the others. */
  idleMs?: number;
  /** Messages it sent, as [kind, count] pairs (only kinds it sent). */
  sent?: [string, number][];
  /** Messages it received, of every kind. */
  received?: number;
  /** Subtrees it handed to other processors. */
  splits?: number;
  /** The first plies of the line it is on, as UCI moves separated by spaces ("" at the root); absent when on none. */
  line?: string;
}

/** The engine is dead (a panic, or a start that failed): start a new worker;
 * `line` is `info string error: ...`. */
export interface CrashedEvent extends Reported {
  type: 'crashed';
  reason: string;
}

/** A Worker running engine/worker.js: `new Worker(url, { type: 'module' }) as EngineWorker`. */
export interface EngineWorker extends Worker {
  postMessage(command: EngineCommand): void;
  onmessage: ((this: Worker, event: MessageEvent<EngineOutput>) => void) | null;
}
