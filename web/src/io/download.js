// Saves a Blob (or text, or text chunks, as `type`) as a file named `filename` through a temporary link; the
// object URL is revoked once the browser has had time to start the download.
export function download(content, filename, type = 'text/plain') {
  const blob = content instanceof Blob ? content : new Blob([].concat(content), { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
