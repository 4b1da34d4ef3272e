// Exports for slides: the run's trace as JSON lines (the simulator's own text, made by the
// Lab worker),
// its table as CSV, and a PNG of the network picture.

/** Offers `blob` to the user as a download called `name`. */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Quotes a CSV field when it needs it (RFC 4180). */
function csvField(value) {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table: a header row, then one row per array of `rows`. */
export function tableCsv(header, rows) {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

export function downloadCsv(header, rows, name) {
  download(new Blob([tableCsv(header, rows)], { type: 'text/csv' }), name);
}

/** The canvas as it is now. */
export function downloadPng(canvas, name) {
  canvas.toBlob((blob) => blob && download(blob, name), 'image/png');
}
