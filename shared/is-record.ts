/** The one check of "a JSON object" for values from the network, IPC or disk. */

/** Whether a value is an object with string keys: not null, not an array, not a scalar. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
