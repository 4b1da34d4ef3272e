// Messages for the user: errors (kept until dismissed) and short notes (fade by themselves).
// Nothing the engine or an import reports is swallowed: it ends up here.

const MAX_SHOWN = 4;
const NOTE_MS = 6000;

export class Notices {
  constructor(el) {
    this.el = el;
    el.setAttribute('aria-live', 'polite');
  }

  /** Shows an error; a later error with the same `topic` replaces it instead of piling up. */
  error(message, topic) {
    const old = topic && this.el.querySelector(`[data-topic="${topic}"]`);
    if (old) old.remove();
    const item = this.add(message, 'error');
    if (topic) item.dataset.topic = topic;
  }

  note(message) {
    const item = this.add(message, 'note');
    setTimeout(() => item.remove(), NOTE_MS);
  }

  add(message, kind) {
    const item = document.createElement('div');
    item.className = `notice ${kind}`;
    item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    const text = document.createElement('span');
    text.textContent = message;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'notice-close';
    close.setAttribute('aria-label', 'Dismiss');
    close.textContent = '×';
    close.addEventListener('click', () => item.remove());
    item.append(text, close);
    this.el.append(item);
    while (this.el.children.length > MAX_SHOWN) this.el.firstElementChild.remove();
    return item;
  }
}
