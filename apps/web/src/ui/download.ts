/** Starts the browser's download of `url` (same origin, or a blob's), as a click on its link would. */
export function startDownload(url: string, name = '') {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
}

/** Saves a blob made in the page under `name`. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  startDownload(url, name);
  // The click has handed the blob to the download by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
