/** Saves a file through the browser's download prompt; nothing leaves the machine. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Text saved as a file of the given type. */
export function saveTextFile(name: string, text: string, type: string): void {
  downloadBlob(new Blob([text], { type }), name);
}
