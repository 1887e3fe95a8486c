/**
 * Hands a file the page made (an export, a template) to the user: a download link clicked, which the browser saves
 * among its downloads and the desktop app with its save dialog.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  link.click();
  // Revoked later: the download reads the address after the click has returned.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
