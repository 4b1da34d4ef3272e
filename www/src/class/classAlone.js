// The lecturer's tab searching alone, for the measured speedup beside the prediction: once
// a class search is over, the Play engine (its own worker, as Play runs it) searches the
// same position to the same depth, serial, on one thread, from an empty table the size of
// a class processor's, Pure as the class's was. Its time at that depth against the class's
// is the class's speedup over one tab. Times are the engines' own (the class's result,
// this engine's report of its last iteration), not the page's clock.

/** A class processor's table, in MiB (crate/wasm/class.rs TABLE_MIB): the same here. */
const TABLE_MIB = 16;

export class AloneSearch {
  /** @param {{engine: import('../engineClient.js').EngineClient, boot: () => void}} p  the Play engine, and how to start it */
  constructor({ engine, boot }) {
    this.engine = engine;
    this.boot = boot;
    this.searches = 0;
    /** the running search's job and how to end its wait, while one runs */
    this.running = null;
  }

  /**
   * Searches `fen` to `depth` alone; resolves with `{ms, nodes, depth}` at the depth
   * asked, or `{why}` when the search could not be timed there.
   */
  search({ fen, depth, pure }) {
    this.stop();
    this.boot();
    return new Promise((resolve) => {
      let last = null;
      const end = (result) => {
        if (this.running?.job === job) this.running = null;
        resolve(result);
      };
      const job = {
        fen,
        go: { depth },
        gameId: `class-alone-${++this.searches}`,
        options: { Threads: 1, Algorithm: 'serial', Hash: TABLE_MIB, Pure: Boolean(pure), MultiPV: 1, UCI_LimitStrength: false },
        onInfo: (info) => {
          if (info.depth && (info.scoreCp !== undefined || info.scoreMate !== undefined) && !info.bound) last = { ms: info.timeMs, nodes: info.nodes, depth: info.depth };
        },
        onBestMove: () => end(last?.depth === depth ? last : { why: last ? `this tab reached depth ${last.depth} only` : 'this tab reported no finished iteration' }),
        onDropped: () => end({ why: 'another search took the Play engine' }),
        onFailed: (message) => end({ why: `the Play engine failed: ${message}` }),
      };
      this.running = { job, end };
      this.engine.start(job);
    });
  }

  /** Withdraws the running search, if any. */
  stop() {
    if (!this.running) return;
    const { job, end } = this.running;
    this.running = null;
    this.engine.cancel(job);
    end({ why: 'stopped' });
  }
}
