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
