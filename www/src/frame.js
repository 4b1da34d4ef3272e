// Redraws driven by engine output can come hundreds of times a second; the screen needs
// them once per frame.

/** Returns a function that runs `draw` at the next animation frame, at most once per frame. */
export function oncePerFrame(draw) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      draw();
    });
  };
}
