// The class's addresses: the relay's WebSocket URL (the page's own /class by default, where
// `./build.sh serve` and www/serve.mjs pass it to `meshmate relay`), the link a student
// opens, `<page>#class?code=CODE` (with `&relay=URL` when the lecturer uses another relay),
// and the lecturer's, `<page>#class?lecturer=TOKEN` (creating a class takes the relay's
// token; `./build.sh serve` prints this link).

const PREFIX = '#class';

/** Where a tab keeps the lecturer's token once its link gave it. */
const TOKEN_KEY = 'meshmate-lecturer-token';

/** A session code as the relay makes them: 128 bits as 32 hex digits (crate/relay/mod.rs). */
export const isSessionCode = (text) => /^[0-9a-f]{32}$/i.test(text);

/** Whether the fragment `hash` is meant for the Class view (`#class`, `#class?…`). */
export const isClassHash = (hash) => hash === PREFIX || hash.startsWith(`${PREFIX}?`);

/** The relay at the page's own origin: ws://host/class, or wss:// on an https page. */
export function defaultRelayUrl(location) {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/class`;
}

/** Whether `text` is a WebSocket URL the worker can open. */
export function isRelayUrl(text) {
  try {
    const url = new URL(text);
    return (url.protocol === 'ws:' || url.protocol === 'wss:') && url.host !== '';
  } catch {
    return false;
  }
}

/**
 * The link students open: the page without its fragment, then `#class?code=CODE`, and the
 * relay only when it is not the page's own.
 * @param {Location|URL} location the lecturer's page
 */
export function joinLink(location, code, relay) {
  const params = new URLSearchParams({ code });
  if (relay && relay !== defaultRelayUrl(location)) params.set('relay', relay);
  return `${location.origin}${location.pathname}${location.search}${PREFIX}?${params}`;
}

/**
 * Reads a Class fragment.
 * @param {string} hash e.g. location.hash
 * @param {Location|URL} location the page, for the default relay
 * @returns {{ code: string|null, relay: string, error: string|null }} `code` null: no session
 *   named (the lecturer's start); `error` says what is wrong with the link
 */
export function readClassHash(hash, location) {
  const params = new URLSearchParams(isClassHash(hash) ? hash.slice(PREFIX.length + 1) : '');
  const relay = params.get('relay') ?? defaultRelayUrl(location);
  const code = params.get('code');
  if (code === null) return { code: null, relay, error: null };
  if (!isSessionCode(code)) return { code: null, relay, error: `This class link's code "${code}" is not a session code (32 hex digits): ask the lecturer for the link again.` };
  if (!isRelayUrl(relay)) return { code: null, relay: defaultRelayUrl(location), error: `This class link's relay "${relay}" is not a ws:// or wss:// address.` };
  return { code: code.toLowerCase(), relay, error: null };
}

/**
 * The lecturer's token: the `lecturer` of a Class fragment (`#class?lecturer=TOKEN`), kept
 * in `storage` (the tab's session storage) so that it outlives the fragment; else the one
 * kept; null if this tab was never given one (it may still join, not create).
 * @param {string} hash e.g. location.hash
 * @param {Storage|null} storage
 */
export function lecturerToken(hash, storage) {
  const given = new URLSearchParams(isClassHash(hash) ? hash.slice(PREFIX.length + 1) : '').get('lecturer');
  if (given) storage?.setItem(TOKEN_KEY, given);
  return given || (storage?.getItem(TOKEN_KEY) ?? null);
}
