/** A duration for people: 840 ms, 3.2 s, 4 min 05 s. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** A memory size in KiB for people: 5.7 MiB, 210 MiB, 1.5 GiB. */
export function formatMiB(kib: number): string {
  const mib = kib / 1024;
  if (mib < 10) return `${mib.toFixed(1)} MiB`;
  if (mib < 1024) return `${Math.round(mib)} MiB`;
  return `${(mib / 1024).toFixed(1)} GiB`;
}

/** A count for people: 950, 12.3k, 4.5M. */
export function formatCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** A clock time for people, in the page's locale. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString();
}

/** A date and time for people, in the page's locale; the date left out when it is today. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString()
    ? date.toLocaleTimeString()
    : date.toLocaleString();
}
