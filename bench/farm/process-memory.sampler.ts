import { childrenOf, commandName, readProc } from './proc-files.js';

/** Peak resident memory seen, in MiB: per watched process, and over its solver children. */
export interface MemoryPeaks {
  /** Largest peak RSS (VmHWM) among the watched processes. */
  processMiB: number;
  /** Largest RSS (VmRSS) of a watched process at one sample: the peak since `start`, not since its launch. */
  processRssMiB: number;
  /** Largest peak RSS among their children named `childCommand` (the solvers). */
  childMiB: number;
  /** Largest sum of the children's RSS of one watched process at one sample. */
  childrenSumMiB: number;
}

/**
 * Samples the memory of a few processes and of their solver children from /proc (Linux): a
 * solver's peak is read while it lives, so short ones can be missed between samples, which only
 * ever under-reports the small ones.
 */
export class ProcessMemorySampler {
  private readonly peaks: MemoryPeaks = { processMiB: 0, processRssMiB: 0, childMiB: 0, childrenSumMiB: 0 };
  private timer?: NodeJS.Timeout;

  constructor(
    private pids: number[],
    private readonly childCommand = 'kissat',
    private readonly everyMs = 50,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  /** Watches other processes from now on (peaks so far are kept). */
  watch(pids: number[]): void {
    this.pids = pids;
  }

  stop(): MemoryPeaks {
    clearInterval(this.timer);
    this.sample();
    return { ...this.peaks };
  }

  private sample(): void {
    for (const pid of this.pids) {
      this.peaks.processMiB = Math.max(this.peaks.processMiB, status(pid, 'VmHWM'));
      this.peaks.processRssMiB = Math.max(this.peaks.processRssMiB, status(pid, 'VmRSS'));
      let sum = 0;
      for (const child of childrenOf(pid)) {
        if (commandName(child) !== this.childCommand) continue;
        this.peaks.childMiB = Math.max(this.peaks.childMiB, status(child, 'VmHWM'));
        sum += status(child, 'VmRSS');
      }
      this.peaks.childrenSumMiB = Math.max(this.peaks.childrenSumMiB, sum);
    }
  }
}

/** A /proc/<pid>/status memory field in MiB (0 once the process is gone). */
function status(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readProc(pid, 'status'));
  return match ? Number(match[1]) / 1024 : 0;
}
