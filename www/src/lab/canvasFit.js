// Canvases of the Lab are drawn at the screen's density: their backing store follows their
// box on the page, so lines and labels stay sharp on high-density screens.

/**
 * Sizes `canvas`'s backing store to its box (at least `minWidth` × `minHeight` pixels).
 * @returns {number} device pixels per CSS pixel, to scale drawing by
 */
export function fitCanvas(canvas, minWidth, minHeight) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(minWidth, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(minHeight, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  return ratio;
}
