/** Resolves in a later task, so long work leaves the event loop (and the screen) free between its steps. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
