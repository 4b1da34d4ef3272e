// The UCI commands the page sends, formatted from values. (What the engine answers comes
// back as typed events, never as text to parse: see engineClient.js.) Pure functions.

/**
 * Formats a `go` command from limits such as {infinite: true}, {movetime: 500}, {depth: 8}
 * or clock times {wtime, btime, winc, binc}.
 */
export function formatGo(limits) {
  const parts = ['go'];
  if (limits.infinite) parts.push('infinite');
  for (const key of ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'depth', 'nodes', 'movetime']) {
    if (limits[key] !== undefined) parts.push(key, String(Math.max(0, Math.round(limits[key]))));
  }
  return parts.join(' ');
}

/** Formats `position fen F [moves ...]`. */
export function formatPosition(fen, moves = []) {
  return `position fen ${fen}` + (moves.length ? ` moves ${moves.join(' ')}` : '');
}
