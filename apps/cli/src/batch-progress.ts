import cliProgress from 'cli-progress';

import { type BatchSummary, isFinalStatus, JOB_STATUSES, type JobStatus } from '@satfarm/queue';

/** The jobs of a batch that are over. */
export function doneCount(counts: BatchSummary['counts']): number {
  return sumCounts(counts, isFinalStatus);
}

function sumCounts(counts: BatchSummary['counts'], which: (status: JobStatus) => boolean): number {
  return JOB_STATUSES.filter(which).reduce((sum, status) => sum + (counts[status] ?? 0), 0);
}

/** The counts by status in the farm's order of statuses, those above zero: `optimal 118, failed 2`. */
export function countsText(counts: BatchSummary['counts']): string {
  return JOB_STATUSES.filter((status) => (counts[status] ?? 0) > 0)
    .map((status) => `${status} ${counts[status]}`)
    .join(', ');
}

/**
 * Jobs a second over the time followed, and the time left at that rate: from the first sample
 * seen, so jobs that ended before the following began do not count.
 */
export class BatchRate {
  private first?: { done: number; at: number };
  private last?: { done: number; at: number };

  observe(done: number, at: number): void {
    this.first ??= { done, at };
    this.last = { done, at };
  }

  /** Jobs a second, or undefined before any has ended while followed. */
  get perSecond(): number | undefined {
    if (this.first === undefined || this.last === undefined) return undefined;
    const jobs = this.last.done - this.first.done;
    const seconds = (this.last.at - this.first.at) / 1000;
    return jobs > 0 && seconds > 0 ? jobs / seconds : undefined;
  }

  /** Seconds left for `remaining` jobs at the rate so far. */
  etaSeconds(remaining: number): number | undefined {
    const rate = this.perSecond;
    return rate === undefined ? undefined : Math.round(remaining / rate);
  }
}

/** `batch <id>: 120/1000 done (optimal 118, failed 2) 12.3 jobs/s eta 71s`, the plain progress line. */
export function progressLine(summary: BatchSummary, rate: BatchRate): string {
  const total = summary.size;
  const done = doneCount(summary.counts);
  const counts = countsText(summary.counts);
  const perSecond = rate.perSecond;
  const eta = rate.etaSeconds(total - done);
  return [
    `batch ${summary.batchId}: ${done}/${total} done`,
    counts === '' ? '' : ` (${counts})`,
    perSecond === undefined ? '' : ` ${perSecond.toFixed(1)} jobs/s`,
    eta === undefined || done === total ? '' : ` eta ${eta}s`,
  ].join('');
}

/** Where a followed batch's updates are shown: a bar on a terminal, plain lines elsewhere. */
export interface BatchProgressView {
  update(summary: BatchSummary): void;
  stop(): void;
}

/** One plain line per update that changes the counts (a pipe, a log file). */
export class BatchProgressLines implements BatchProgressView {
  private readonly rate = new BatchRate();
  private lastCounts = '';

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  update(summary: BatchSummary): void {
    this.rate.observe(doneCount(summary.counts), this.now());
    const counts = `${summary.size} ${countsText(summary.counts)}`;
    if (counts === this.lastCounts) return;
    this.lastCounts = counts;
    this.write(`${progressLine(summary, this.rate)}\n`);
  }

  stop(): void {}
}

/** A live bar on a terminal (cli-progress, on stderr): done/total, counts, jobs/s and ETA. */
export class BatchProgressBar implements BatchProgressView {
  private readonly rate = new BatchRate();
  private readonly bar: cliProgress.SingleBar;
  private started = false;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.bar = new cliProgress.SingleBar(
      {
        stream,
        format: ' batch [{bar}] {value}/{total} | {counts} | {rate} | eta {left}',
        hideCursor: true,
        clearOnComplete: false,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  update(summary: BatchSummary): void {
    const total = summary.size;
    const done = doneCount(summary.counts);
    this.rate.observe(done, Date.now());
    const perSecond = this.rate.perSecond;
    const eta = this.rate.etaSeconds(total - done);
    const payload = {
      counts: countsText(summary.counts) || 'starting',
      rate: perSecond === undefined ? '- jobs/s' : `${perSecond.toFixed(1)} jobs/s`,
      left: eta === undefined ? '-' : `${eta}s`,
    };
    if (!this.started) {
      this.bar.start(total, done, payload);
      this.started = true;
    }
    this.bar.setTotal(total);
    this.bar.update(done, payload);
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}
