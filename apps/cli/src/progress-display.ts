import cliProgress from 'cli-progress';

import type { SolveEvent } from '@satfarm/engine';

interface HorizonView {
  state: string;
  conflicts?: number;
  /** A split horizon's cubes refuted, of how many. */
  cubes?: { refuted: number; of: number };
}

/**
 * What the progress line shows of a sweep, from its events: how far the bounds have closed over
 * the window (`value` of `total` horizons), which horizons run (with their conflict counts) and
 * which are decided. The window opens at the sweep's `start` when `--min-horizon` moved it above
 * the game's bound, and at that bound again if a plan under the start reopens the horizons below.
 * The `lower` shown is always the proven one.
 */
export class SweepProgressView {
  private readonly horizons = new Map<number, HorizonView>();
  private lower = 0;
  private upper: number | undefined;
  private gameLower = 0;
  private start = 0;
  private max = 0;

  handle(event: SolveEvent): void {
    if (event.type === 'sweep') {
      this.gameLower = this.lower = event.lower;
      this.start = event.start ?? event.lower;
      this.max = event.max;
    } else if (event.type === 'horizon') {
      this.horizons.set(event.t, { ...this.horizons.get(event.t), state: event.state });
    } else if (event.type === 'bounds') {
      this.lower = event.lower;
      this.upper = event.upper;
    } else if (event.type === 'split') {
      const view = this.horizons.get(event.t) ?? { state: 'running' };
      this.horizons.set(event.t, { ...view, cubes: { refuted: event.refuted, of: event.cubes } });
    } else if (event.type === 'progress' && event.progress.conflicts !== undefined) {
      const view = this.horizons.get(event.t) ?? { state: 'running' };
      this.horizons.set(event.t, { ...view, conflicts: event.progress.conflicts });
    }
  }

  /** The first horizon of the window the bar spans. */
  private origin(): number {
    return this.upper !== undefined && this.upper <= this.start ? this.gameLower : this.start;
  }

  get total(): number {
    return Math.max(1, this.max - this.origin() + 1);
  }

  /** Horizons of the window decided so far: those under the lower bound and from the plan up. */
  get value(): number {
    const top = this.upper ?? this.max + 1;
    const closed = this.total - (top - Math.max(this.lower, this.origin()));
    return Math.max(0, Math.min(this.total, closed));
  }

  get payload(): Record<string, string> {
    const parts = [...this.horizons.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, h]) => h.state !== 'cancelled')
      .slice(-6)
      .map(([t, h]) =>
        h.state === 'running' && h.cubes !== undefined
          ? `t${t}:cubes ${h.cubes.refuted}/${h.cubes.of}`
          : h.state === 'running' && h.conflicts !== undefined
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

/**
 * A live one-line view of a sweep on a terminal, drawn by cli-progress on stderr so a `--json`
 * stdout stays clean.
 */
export class SweepProgressDisplay {
  private readonly bar: cliProgress.SingleBar;
  private readonly view = new SweepProgressView();
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
    this.view.handle(event);
    if (!this.started) {
      this.bar.start(this.view.total, 0, this.view.payload);
      this.started = true;
    }
    this.bar.setTotal(this.view.total);
    this.bar.update(this.view.value, this.view.payload);
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}
