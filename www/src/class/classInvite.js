// The lecturer's invitation: the join link as text and as a QR code (a click enlarges it for
// a room's screen), and Copy link. The students need nothing else to join.
import QRCode from 'qrcode';

export class Invite {
  /**
   * @param {HTMLElement} panel  template.js `.class-invite`
   * @param {{onNote: (text: string) => void, onProblem: (message: string) => void}} on
   *   a word for the status line; a failure to show
   */
  constructor(panel, { onNote, onProblem }) {
    this.link = panel.querySelector('.class-link');
    this.qr = panel.querySelector('.class-qr');
    this.onNote = onNote;
    this.onProblem = onProblem;
    this.qr.addEventListener('click', () => this.qr.classList.toggle('large'));
    panel.querySelector('[data-class="copy-link"]').addEventListener('click', () => this.copy());
  }

  /** Shows `link`, the session's join link, as text and as a QR code. */
  show(link) {
    this.link.href = link;
    this.link.textContent = link;
    this.qr.dataset.text = link;
    QRCode.toCanvas(this.qr, link, { errorCorrectionLevel: 'M', margin: 2, width: 480, color: { dark: '#000000', light: '#ffffff' } })
      // The package sizes the canvas's box too; the style sheet does that here (and enlarges it on a click).
      .then(() => this.qr.removeAttribute('style'))
      .catch((e) => this.onProblem(`The QR code could not be drawn: ${e.message ?? e}`));
  }

  async copy() {
    try {
      await navigator.clipboard.writeText(this.link.href);
      this.onNote('The link is copied.');
    } catch {
      const range = document.createRange();
      range.selectNodeContents(this.link);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      this.onNote('Copy the selected link (Ctrl+C).');
    }
  }
}
