// The Lab's colours for what the network, the charts and the tables share: a processor's
// state and a message's kind.

export const STATE_COLORS = { busy: '#3fb950', waiting: '#e3a21a', done: '#6e7681' };
/** One colour per message kind, in the simulator's kind order (work-request, work, ...). */
export const KIND_COLORS = ['#58a6ff', '#3fb950', '#8b949e', '#d2a8ff', '#f0e442', '#ff5c5c', '#ff9f43', '#39d0d8', '#a371f7', '#e3b341', '#db61a2'];
