/** Parses a JSON text column written by this store; a corrupt value is a server fault, not the caller's. */
export function parseJsonColumn<T>(text: string, column: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`Stored JSON in column ${column} is corrupt`, { cause: error });
  }
}
