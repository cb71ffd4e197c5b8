import { execFileSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A row of the process table. */
export interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  /** `ps` state letters; a zombie starts with Z. */
  stat: string;
  command: string;
}

/** The whole process table, read with ps. */
export function processTable(): ProcessRow[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,comm='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 5)
    .map(([pid, ppid, pgid, stat, command]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      stat: stat!,
      command: command!,
    }));
}

/**
 * The descendants of `root` (this process by default: its spawn host and the solvers it started),
 * zombies included, except the probing `ps`.
 */
export function descendantProcesses(root: number = process.pid): ProcessRow[] {
  const table = processTable();
  const inTree = new Set([root]);
  // Parents precede children in pid order only usually: repeat until nothing more joins.
  for (let grew = true; grew;) {
    grew = false;
    for (const row of table) {
      if (!inTree.has(row.pid) && inTree.has(row.ppid)) {
        inTree.add(row.pid);
        grew = true;
      }
    }
  }
  return table.filter((row) => row.pid !== root && inTree.has(row.pid) && row.command !== 'ps');
}

/**
 * The live processes of process group `pgid`. Zombies are left out: they are dead, and a
 * grandchild killed with its group becomes one until init reaps it.
 */
export function groupMembers(pgid: number): ProcessRow[] {
  return processTable().filter((row) => row.pgid === pgid && !row.stat.startsWith('Z'));
}

/** Writes an executable shell script `name` into `dir` and returns its path. */
export async function writeScript(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}
