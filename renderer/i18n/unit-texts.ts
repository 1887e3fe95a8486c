/**
 * The units of sizes and durations (`uploads.units`), which most languages write alike. A language that writes one
 * of them otherwise spreads this table and gives its own text for that unit.
 */
export const UNIT_TEXTS = {
  bytes: '{size} B',
  kib: '{size} KiB',
  mib: '{size} MiB',
  gib: '{size} GiB',
  seconds: '{count} s',
  minutes: '{count} min',
  hours: '{count} h',
};
