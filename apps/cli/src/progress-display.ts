import cliProgress from 'cli-progress';

import type { SolveEvent } from '@satfarm/engine';

interface HorizonView {
  state: string;
  conflicts?: number;
}

/**
 * A live one-line view of a sweep on a terminal: how far the bounds have closed, which horizons
 * run (with their conflict counts) and which are decided. Drawn by cli-progress on stderr so a
 * `--json` stdout stays clean.
 */
export class SweepProgressDisplay {
  private readonly bar: cliProgress.SingleBar;
  private readonly horizons = new Map<number, HorizonView>();
  private lower = 0;
  private upper: number | undefined;
  private initialLower = 0;
  private max = 0;
  private started = false;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.bar = new cliProgress.SingleBar(
      {
        stream,
        format: ' bounds [{bar}] lower {lower} upper {upper} | {horizons} | {duration_formatted}',
        hideCursor: true,
        clearOnComplete: false,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  handle(event: SolveEvent): void {
    if (event.type === 'sweep') {
      this.initialLower = this.lower = event.lower;
      this.max = event.max;
    }
    if (!this.started) {
      this.bar.start(Math.max(1, this.max - this.initialLower + 1), 0, this.payload());
      this.started = true;
    }
    if (event.type === 'horizon') {
      this.horizons.set(event.t, { ...this.horizons.get(event.t), state: event.state });
    } else if (event.type === 'bounds') {
      this.lower = event.lower;
      this.upper = event.upper;
    } else if (event.type === 'progress' && event.progress.conflicts !== undefined) {
      const view = this.horizons.get(event.t) ?? { state: 'running' };
      this.horizons.set(event.t, { ...view, conflicts: event.progress.conflicts });
    }
    this.bar.update(this.closed(), this.payload());
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }

  private closed(): number {
    const top = this.upper ?? this.max + 1;
    const span = Math.max(1, this.max - this.initialLower + 1);
    return Math.min(span, span - (top - this.lower));
  }

  private payload(): Record<string, string> {
    const parts = [...this.horizons.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, h]) => h.state !== 'cancelled')
      .slice(-6)
      .map(([t, h]) =>
        h.state === 'running' && h.conflicts !== undefined
          ? `t${t}:${h.state} ${compact(h.conflicts)}c`
          : `t${t}:${h.state}`,
      );
    return {
      lower: String(this.lower),
      upper: this.upper === undefined ? '-' : String(this.upper),
      horizons: parts.join(' ') || 'starting',
    };
  }
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}
