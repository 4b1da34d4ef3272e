// Where the Lab draws each network's processors so a student can follow the wiring.
//
// DeBruijn (Zugzwang's shuffle-exchange graph): a processor is an n-bit label; its shuffle
// link rotates the bits left, its exchange link rotates and flips the last bit. So the
// processors whose labels are rotations of each other (a "necklace") are joined in a ring
// by shuffle links, and an exchange link changes the number of 1 bits by one. The drawing
// puts each necklace on a small ring, the rings in rows by their number of 1 bits (0 at
// the top): shuffle links run round the rings, exchange links between neighbouring rows.
//
// Heat maps (above the detailed limit) keep the network's own coordinates: DeBruijn and
// hypercube labels split into row bits and column bits, a ring snakes through its rows
// so neighbours stay neighbours, the other networks fill rows in processor order.

/** Bits of a processor label of a `processors`-processor DeBruijn or hypercube. */
export const labelBits = (processors) => Math.round(Math.log2(processors));

/** Processor `p`'s n-bit label. */
export const binaryLabel = (p, bits) => p.toString(2).padStart(bits, '0');

/** `x` rotated left by one bit within `bits` bits (the shuffle). */
const rotateLeft = (x, bits) => ((x << 1) | (x >> (bits - 1))) & ((1 << bits) - 1);

const ones = (x) => {
  let count = 0;
  for (; x; x &= x - 1) count++;
  return count;
};

/**
 * The necklaces of n-bit labels: `{ weight, members }`, members in shuffle order from the
 * smallest label (each is the shuffle of the one before), sorted by weight, then label.
 */
export function necklaces(bits) {
  const seen = new Set();
  const found = [];
  for (let x = 0; x < 1 << bits; x++) {
    if (seen.has(x)) continue;
    const members = [x];
    seen.add(x);
    for (let y = rotateLeft(x, bits); y !== x; y = rotateLeft(y, bits)) {
      members.push(y);
      seen.add(y);
    }
    found.push({ weight: ones(x), members });
  }
  return found.sort((a, b) => a.weight - b.weight || a.members[0] - b.members[0]);
}

/**
 * DeBruijn's shuffle-exchange drawing: a point (x, y in 0..1) per processor, and the rows'
 * weights (number of 1 bits) with their y, for the row captions.
 */
export function deBruijnLayout(processors) {
  const bits = labelBits(processors);
  if (bits < 2) return { points: Array.from({ length: processors }, (_, p) => [0.25 + 0.5 * p, 0.5]), rows: [] };
  const rows = Array.from({ length: bits + 1 }, () => []);
  for (const necklace of necklaces(bits)) rows[necklace.weight].push(necklace);
  // A row's width in slots: each necklace as many slots as it has members, one between.
  const width = (row) => row.reduce((sum, n) => sum + n.members.length, 0) + row.length - 1;
  const widest = Math.max(...rows.map(width));
  const points = new Array(processors);
  const rowHeight = 1 / rows.length;
  rows.forEach((row, weight) => {
    const y = (weight + 0.5) * rowHeight;
    let slot = (widest - width(row)) / 2;
    for (const { members } of row) {
      const k = members.length;
      const cx = (slot + k / 2) / widest;
      // A ring as wide as its slots and a little flatter than its row; a pair side by side.
      const rx = k === 1 ? 0 : (k === 2 ? 0.5 : 0.38 * k) / widest;
      const ry = k <= 2 ? 0 : 0.36 * rowHeight;
      members.forEach((label, i) => {
        const angle = Math.PI + (2 * Math.PI * i) / k;
        points[label] = [cx + rx * Math.cos(angle), y + ry * Math.sin(angle)];
      });
      slot += k + 1;
    }
  });
  return { points, rows: rows.map((_, weight) => ({ weight, y: (weight + 0.5) * rowHeight })) };
}

/**
 * The heat map's grid for `processors` processors of network `net`: `{ cols, rows,
 * cell(p) → [col, row] }`, keeping the topology's coordinates.
 */
export function heatGrid(net, processors) {
  if (net === 'debruijn' || net === 'hypercube') {
    const bits = labelBits(processors);
    const colBits = Math.ceil(bits / 2);
    const cols = 1 << colBits;
    return { cols, rows: processors / cols, cell: (p) => [p & (cols - 1), p >> colBits], axes: { colBits, rowBits: bits - colBits } };
  }
  const cols = Math.ceil(Math.sqrt(processors));
  const rows = Math.ceil(processors / cols);
  if (net === 'ring') {
    // Row by row, every other row right to left: neighbours on the ring stay side by side.
    return { cols, rows, cell: (p) => [Math.floor(p / cols) % 2 ? cols - 1 - (p % cols) : p % cols, Math.floor(p / cols)], axes: null };
  }
  return { cols, rows, cell: (p) => [p % cols, Math.floor(p / cols)], axes: null };
}
