// A timed game's clocks as the page shows them (PROTOCOL.md section 10): m:ss, h:mm:ss from an
// hour, days and hours from a day, tenths of a second below ten seconds (where a clock is low).

/** Below this (milliseconds) a clock is low: warned, with tenths. */
export const LOW_MS = 10000;

/** ``ms`` milliseconds as a clock shows them. */
export function clockText(ms) {
  ms = Math.max(0, Math.floor(ms));
  if (ms >= 86400000) return `${Math.floor(ms / 86400000)}d ${Math.floor((ms % 86400000) / 3600000)}h`;
  if (ms < LOW_MS) return `${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}
