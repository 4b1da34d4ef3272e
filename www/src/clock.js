// Chess clocks: two countdowns, one running at a time, with a Fischer increment added
// after each move. Time is measured with performance.now(), so a busy page cannot make
// a clock lose or gain time; the display is refreshed by a timer, the truth is in `remaining()`.

/** Time controls offered, in minutes + seconds of increment; null = untimed. */
export const TIME_CONTROLS = [
  null,
  { minutes: 1, increment: 0 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
  { minutes: 30, increment: 0 },
];

export function timeControlLabel(tc) {
  return tc ? `${tc.minutes}+${tc.increment}` : 'Untimed';
}

export class Clock {
  /**
   * @param {{minutes: number, increment: number}} control
   * @param {(color: 'white'|'black') => void} onFlag  a side ran out of time
   * @param {() => void} onTick  redraw request, a few times a second while running
   */
  constructor(control, onFlag, onTick) {
    this.increment = control.increment * 1000;
    /** ms left for each side when its clock last stopped */
    this.left = { white: control.minutes * 60000, black: control.minutes * 60000 };
    /** the side whose clock runs, or null */
    this.running = null;
    /** performance.now() when the running clock started */
    this.since = 0;
    this.onFlag = onFlag;
    this.onTick = onTick;
    this.timer = null;
  }

  /** ms left for a side now. */
  remaining(color) {
    const elapsed = this.running === color ? performance.now() - this.since : 0;
    return Math.max(0, this.left[color] - elapsed);
  }

  /** Starts the clock of `color` (stopping the other without increment). */
  start(color) {
    if (this.running === color) return;
    this.pause();
    this.running = color;
    this.since = performance.now();
    this.timer = setInterval(() => this.tick(), 100);
  }

  /** The side to move has moved: stop its clock, add the increment, start the other's. */
  switchAfterMove(mover) {
    if (this.running === mover) {
      this.pause();
      this.left[mover] += this.increment;
    }
    this.start(mover === 'white' ? 'black' : 'white');
  }

  pause() {
    if (this.running) this.left[this.running] = this.remaining(this.running);
    this.running = null;
    clearInterval(this.timer);
    this.timer = null;
  }

  tick() {
    const color = this.running;
    if (color && this.remaining(color) <= 0) {
      this.pause();
      this.onFlag(color);
    }
    this.onTick();
  }

  /** For localStorage: the times left, paused. */
  toJSON() {
    return { white: this.remaining('white'), black: this.remaining('black'), increment: this.increment };
  }

  restore(saved) {
    this.left = { white: saved.white, black: saved.black };
    this.increment = saved.increment;
  }
}

/** "4:05", or "0:09.3" under ten seconds. */
export function formatClock(ms) {
  const total = Math.max(0, ms);
  const minutes = Math.floor(total / 60000);
  const seconds = Math.floor((total % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, '0')}`;
  return total < 10000 ? `${text}.${Math.floor((total % 1000) / 100)}` : text;
}
