// The experiment in the page's address, so a link on a slide or in a chat opens the same
// run (same seed, same numbers): `#lab?algorithm=ybwc&net=debruijn&processors=16&…`, or a
// lecture and its stop, `#lab?lecture=ybwc&stop=3`. Reading a link checks every field
// against what the simulator offers; what does not pass is named, and the default is used.

/** The fields of an experiment, in the order a link writes them. */
export const FIELDS = ['algorithm', 'net', 'processors', 'preset', 'tt', 'search', 'position', 'depth', 'seed'];
const PREFIX = '#lab';

/** The address fragment of `values` (experiment fields), or of a lecture at `stop`. */
export function experimentHash(values, lecture = null) {
  const params = new URLSearchParams();
  if (lecture) {
    params.set('lecture', lecture.id);
    if (lecture.stop) params.set('stop', String(lecture.stop));
  } else {
    for (const name of FIELDS) params.set(name, String(values[name]));
  }
  return `${PREFIX}?${params}`;
}

/** Whether the fragment `hash` is meant for the Lab. */
export const isLabHash = (hash) => hash === PREFIX || hash.startsWith(`${PREFIX}?`);

/**
 * Reads a Lab fragment against what the simulator offers.
 * @param {string} hash e.g. location.hash
 * @param {{ algorithms: string[], nets: string[], presets: {name: string}[], ttModes: string[], maxDepth: number }} catalogue
 * @param {string[]} positions position ids the form offers
 * @param {string[]} lectures lecture ids
 * @returns {{ values: object, lecture: {id: string, stop: number}|null, ignored: string[] }}
 *   `values` holds only the fields the link set correctly; `ignored` says, field by field, what was not used and why
 */
export function readExperimentHash(hash, catalogue, positions, lectures) {
  const params = new URLSearchParams(hash.slice(hash.indexOf('?') + 1 || hash.length));
  const values = {};
  const ignored = [];
  const oneOf = (allowed) => (text) => (allowed.includes(text) ? text : undefined);
  const whole = (min, max) => (text) => {
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
  };
  const checks = {
    algorithm: [oneOf(catalogue.algorithms), `one of ${catalogue.algorithms.join(', ')}`],
    net: [oneOf(catalogue.nets), `one of ${catalogue.nets.join(', ')}`],
    processors: [whole(1, 1024), 'a whole number from 1 to 1024'],
    preset: [oneOf(catalogue.presets.map((p) => p.name)), `one of ${catalogue.presets.map((p) => p.name).join(', ')}`],
    tt: [oneOf(catalogue.ttModes), `one of ${catalogue.ttModes.join(', ')}`],
    search: [oneOf(['modern', 'period']), 'modern or period'],
    position: [oneOf(positions), 'a position of the menu'],
    depth: [whole(1, catalogue.maxDepth), `a whole number from 1 to ${catalogue.maxDepth}`],
    seed: [whole(0, Number.MAX_SAFE_INTEGER), 'a whole number, 0 or more'],
  };
  let lecture = null;
  for (const [name, text] of params) {
    if (name === 'lecture' || name === 'stop') continue;
    const check = checks[name];
    if (!check) {
      ignored.push(`${name} (not a setting of the Lab)`);
      continue;
    }
    const value = check[0](text);
    if (value === undefined) ignored.push(`${name}=${text} (must be ${check[1]})`);
    else values[name] = value;
  }
  if (params.has('lecture')) {
    const id = params.get('lecture');
    const stop = params.has('stop') ? whole(0, 99)(params.get('stop')) : 0;
    if (!lectures.includes(id)) ignored.push(`lecture=${id} (must be one of ${lectures.join(', ')})`);
    else {
      if (stop === undefined) ignored.push(`stop=${params.get('stop')} (must be a whole number)`);
      lecture = { id, stop: stop ?? 0 };
    }
  }
  return { values, lecture, ignored };
}

/** The sentence that tells the user what a link's reading left out. */
export function ignoredNotice(ignored) {
  return `The link's ${ignored.join('; ')} ${ignored.length === 1 ? 'was' : 'were'} ignored: the defaults are used instead.`;
}
