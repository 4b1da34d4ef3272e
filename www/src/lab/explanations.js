// A short plain-words explanation of each algorithm, for the Lab's side panel (lectures).
export const EXPLANATIONS = {
  pvsplit:
    'PV-Splitting (Marsland). One master walks down the principal variation, the line it expects to be best. ' +
    'At each node on that line it searches the first move alone, then hands the remaining moves to the other processors at once. ' +
    'Simple, but processors wait at every PV node until the slowest brother is done.',
  ybwc:
    'Young Brothers Wait (Zugzwang). Every processor is equal. A node\'s younger moves may be given away only after its eldest brother is searched, ' +
    'because that first result usually gives the bound that cuts the others. Idle processors ask a random processor for work; ' +
    'bounds (NEW-BOUND) and cutoffs (CUTOFF) travel as messages to whoever holds the subtrees.',
  'ybwc-all':
    'YBWC-ALL, a hybrid. Young Brothers Wait, with one rule of Cray Blitz\'s DTS: at a node expected to be an ALL node, where every move ' +
    'must be searched anyway, the younger moves may be given away as soon as the eldest is under way, not only once it is back. ' +
    'Processors wait less; when an expected ALL node turns out to cut, what its brothers searched is wasted.',
  jamboree:
    'Jamboree (StarTech). Value the first child, then test all the other children in parallel with a null window; ' +
    'only children whose test fails are searched again, one after another. A cutoff aborts the remaining tests. ' +
    'Idle processors steal posted work, near the root first.',
  dts:
    'Dynamic Tree Splitting (Cray Blitz). An idle processor broadcasts HELP; busy ones publish their tree, and the idle one picks the split node, ' +
    'preferring ALL nodes and shallow ones, never CUT nodes. A split point stays with its owner, who never waits as a master: ' +
    'while its values are out, it helps elsewhere (in Cray Blitz, any processor could finish a split point). ' +
    'A thrashing counter stops processors from splitting too eagerly.',
  lazysmp:
    'Lazy SMP (modern engines). Every processor runs its own iterative deepening over the one shared transposition table; ' +
    'they share only what the table remembers. No messages, little control, surprisingly good on shared memory.',
  abdada:
    'ABDADA. Processors deepen over a shared table, odd ones a ply ahead as in Lazy SMP; a position another processor is already ' +
    'searching is deferred and taken up later, so processors spread over different moves without explicit messages. ' +
    'They also share one history table: a cutoff one finds orders the moves of all.',
};

/** The explanation of `algorithm`, or a neutral line for one without a text. */
export function explain(algorithm) {
  return EXPLANATIONS[algorithm] ?? `${algorithm}: a parallel alpha-beta search on the simulated machine.`;
}
