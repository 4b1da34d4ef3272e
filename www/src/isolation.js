// What the browser offers the engine, found by feature test (never by user agent):
// threads need SharedArrayBuffer, which needs a cross-origin isolated page.

export function probeDevice() {
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  return { isolated, cores, maxThreads: isolated ? cores : 1 };
}

/** The one-sentence explanation shown when the page is not isolated (empty when it is). */
export function isolationMessage(device) {
  if (device.isolated) return '';
  return (
    'This page is not cross-origin isolated, so the engine plays with one thread; the site owner can enable all cores by serving it with the headers ' +
    '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp".'
  );
}
