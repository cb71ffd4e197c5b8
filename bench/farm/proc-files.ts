import { readFileSync } from 'node:fs';

/** A /proc file's text, or '' once the process is gone (Linux). */
export function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** The pids of a process's children. */
export function childrenOf(pid: number): number[] {
  return readProc(pid, `task/${pid}/children`).split(/\s+/).filter(Boolean).map(Number);
}

/** A process's command name (`comm`). */
export function commandName(pid: number): string {
  return readProc(pid, 'comm').trim();
}

/** A process's command line, its arguments joined by spaces. */
export function commandLine(pid: number): string {
  return readProc(pid, 'cmdline').replaceAll('\0', ' ');
}

/** Linux's USER_HZ: the unit of the times in /proc/<pid>/stat. */
export const TICKS_PER_SECOND = 100;

/** A process's CPU times, in clock ticks. */
export interface ProcessTimes {
  /** utime + stime. */
  own: number;
  /** cutime + cstime: children waited for. */
  reaped: number;
}

/** A process's CPU times from /proc/<pid>/stat, or undefined once it is gone. */
export function processTimes(pid: number): ProcessTimes | undefined {
  const stat = readProc(pid, 'stat');
  if (stat === '') return undefined;
  // Fields after the command name, which may hold spaces: state is field 3, utime field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return { own: utime! + stime!, reaped: cutime! + cstime! };
}
