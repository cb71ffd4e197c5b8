import { execFileSync } from 'node:child_process';

/** A row of the process table. */
export interface ProcessRow {
  pid: number;
  ppid: number;
  command: string;
}

/** The whole process table, read with ps. */
export function processTable(): ProcessRow[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 3)
    .map(([pid, ppid, command]) => ({ pid: Number(pid), ppid: Number(ppid), command: command! }));
}

/** Every process descended from `root` (not including it). */
export function descendants(root: number): ProcessRow[] {
  const table = processTable();
  const found: ProcessRow[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const row of table) {
      if (row.ppid === parent) {
        found.push(row);
        frontier.push(row.pid);
      }
    }
  }
  return found;
}

/** Whether process `pid` still exists (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false;
  }
}

/** The pids of the solver processes (`command`, kissat by default) descended from `root`. */
export function solversUnder(root: number, command = 'kissat'): number[] {
  return descendants(root)
    .filter((row) => row.command === command)
    .map((row) => row.pid);
}
