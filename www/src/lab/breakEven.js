// The latency lecture's break-even points, read: speedup SPE against the seconds one
// processor takes for the search, T(1), for each algorithm on each classroom preset, one
// point per depth (`{algorithm, preset, depth, t1, speedup, searchOverhead}`, each a run the
// Lab simulated). Where a line reaches SPE = 1 the class beats one laptop. The sentences
// under the chart (breakEvenChart.js) are written from the points alone.

/** The points of one line (an algorithm on a preset), by T(1). */
const line = (points, algorithm, preset) => points.filter((q) => q.algorithm === algorithm && q.preset === preset).sort((a, b) => a.t1 - b.t1);

/** The least T(1), in s, at which `algorithm` on `preset` reaches SPE ≥ 1, or null. */
export function breakEven(points, algorithm, preset) {
  return line(points, algorithm, preset).find((q) => q.speedup >= 1)?.t1 ?? null;
}

/** Seconds as the sentences write them: "0.028 s". */
const seconds = (s) => `${s.toFixed(3)} s`;
const spe = (x) => x.toFixed(2);

/**
 * What the chart shows, in sentences made of its points only (`{algorithm, preset, depth,
 * t1, speedup, searchOverhead}`): where each preset's lines break even, how far the
 * deepest search got, and what latency did to each algorithm between the first and last
 * preset.
 */
export function breakEvenText(points, { algorithms, presets }) {
  if (points.length === 0) return '';
  const deepest = Math.max(...points.map((q) => q.depth));
  const at = (algorithm, preset) => points.find((q) => q.algorithm === algorithm && q.preset === preset && q.depth === deepest);
  const sentences = presets.map((preset) => {
    const even = algorithms.map((a) => [a, breakEven(points, a, preset)]).filter(([, t]) => t !== null);
    const best = algorithms.map((a) => at(a, preset)).filter(Boolean).sort((x, y) => y.speedup - x.speedup)[0];
    const reach = best ? ` At depth ${deepest} (T(1) ${seconds(best.t1)}) ${best.algorithm} leads with SPE ${spe(best.speedup)}.` : '';
    if (even.length === 0) return `On ${preset} no line reaches SPE 1: the class is slower than one laptop on every search here.${reach}`;
    return `On ${preset} the class beats one laptop from ${even.map(([a, t]) => `T(1) ${seconds(t)} with ${a}`).join(', ')}.${reach}`;
  });
  const [first, last] = [presets[0], presets[presets.length - 1]];
  const fall = algorithms
    .map((a) => [a, at(a, first), at(a, last)])
    .filter(([, x, y]) => x && y)
    .map(([a, x, y]) => `${a} from ${spe(x.speedup)} to ${spe(y.speedup)} (search overhead ${spe(x.searchOverhead)} to ${spe(y.searchOverhead)})`);
  if (fall.length) sentences.push(`From ${first} to ${last}, at depth ${deepest}: ${fall.join('; ')}.`);
  return sentences.join(' ');
}
