import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

import type { SolverName, SolverPreset } from '@satfarm/solver';

/** One way to run a solver on a formula: which solver, its preset, its seed. */
export interface SolverConfig {
  solver: SolverName;
  preset: SolverPreset;
  seed: number;
}

/** A configuration's name in records and reports, e.g. `kissat/sat/3`. */
export function configLabel(config: SolverConfig): string {
  return `${config.solver}/${config.preset}/${config.seed}`;
}

/**
 * The answer a horizon is expected to give: UNSAT at the lower bound, SAT above it; either for a
 * single solve, which has no bound.
 */
export type ExpectedAnswer = 'sat' | 'unsat' | 'either';

/** What the record holds of one configuration, for one game and expected answer. */
export interface ConfigTally {
  /** Races it ran in. */
  runs: number;
  /** Races it answered first. */
  wins: number;
  /** Milliseconds to its answers, summed over its wins. */
  winMs: number;
}

/** One configuration's part in a race, as recorded. */
export interface RaceEntry {
  config: string;
  /** Whether it gave the race's answer. */
  won: boolean;
  ms: number;
}

/** Where a portfolio's races are recorded and read back, per game and expected answer. */
export interface PortfolioRecord {
  tallies(game: string, expected: ExpectedAnswer): Promise<ReadonlyMap<string, ConfigTally>>;
  add(game: string, expected: ExpectedAnswer, race: readonly RaceEntry[]): Promise<void>;
}

/** A record held in memory: a process's own races only. */
export class MemoryPortfolioRecord implements PortfolioRecord {
  private readonly byKey = new Map<string, Map<string, ConfigTally>>();

  tallies(game: string, expected: ExpectedAnswer): Promise<ReadonlyMap<string, ConfigTally>> {
    return Promise.resolve(new Map(this.byKey.get(`${game}/${expected}`) ?? []));
  }

  add(game: string, expected: ExpectedAnswer, race: readonly RaceEntry[]): Promise<void> {
    const key = `${game}/${expected}`;
    const tallies = this.byKey.get(key) ?? new Map<string, ConfigTally>();
    this.byKey.set(key, tallies);
    for (const entry of race) tallies.set(entry.config, tallied(tallies.get(entry.config), entry));
    return Promise.resolve();
  }
}

/** `tally` with `entry` counted in. */
export function tallied(tally: ConfigTally | undefined, entry: RaceEntry): ConfigTally {
  const base = tally ?? { runs: 0, wins: 0, winMs: 0 };
  return {
    runs: base.runs + 1,
    wins: base.wins + (entry.won ? 1 : 0),
    winMs: base.winMs + (entry.won ? entry.ms : 0),
  };
}

/**
 * The configurations a portfolio draws from: each preset of each solver that has presets (kissat
 * and cadical), with seeds 0 to `seeds - 1` for kissat. Which of them race, and in what order, is
 * the record's to decide (`orderConfigs`).
 */
export function candidateConfigs(seeds = 4): SolverConfig[] {
  const presets: SolverPreset[] = ['default', 'sat', 'unsat'];
  const kissat = presets.flatMap((preset) =>
    Array.from({ length: seeds }, (_, seed): SolverConfig => ({ solver: 'kissat', preset, seed })),
  );
  const cadical = presets.map((preset): SolverConfig => ({ solver: 'cadical', preset, seed: 0 }));
  return [...kissat, ...cadical];
}

/**
 * The order in which configurations join a race: `primary` (what the horizon runs without a
 * portfolio) first, then the others by their record: those never tried first, then by an upper
 * confidence bound on the share of races won; ties go to the faster mean win, then to the
 * candidates' order.
 */
export function orderConfigs(
  candidates: readonly SolverConfig[],
  tallies: ReadonlyMap<string, ConfigTally>,
  primary: SolverConfig,
): SolverConfig[] {
  const primaryLabel = configLabel(primary);
  const total = [...tallies.values()].reduce((sum, t) => sum + t.runs, 0);
  const score = (config: SolverConfig): [number, number] => {
    const tally = tallies.get(configLabel(config));
    if (tally === undefined || tally.runs === 0) return [Number.POSITIVE_INFINITY, 0];
    const share = tally.wins / tally.runs;
    const bonus = Math.sqrt((2 * Math.log(Math.max(total, 1))) / tally.runs);
    return [share + bonus, tally.wins === 0 ? Number.POSITIVE_INFINITY : tally.winMs / tally.wins];
  };
  const others = candidates
    .map((config, index) => ({ config, index, score: score(config) }))
    .filter(({ config }) => configLabel(config) !== primaryLabel)
    .sort((a, b) => b.score[0] - a.score[0] || a.score[1] - b.score[1] || a.index - b.index)
    .map(({ config }) => config);
  return [primary, ...others];
}

/** A configuration that ran beside the one whose answer stands, in a horizon's figures. */
export interface RacedRun {
  config: string;
  result: 'sat' | 'unsat' | 'unknown' | 'cancelled';
  ms: number;
  /** It stopped early to give its slot to a horizon the sweep wanted. */
  gaveWay?: true;
}

/** A race's run of one configuration: its result and its time. */
export interface RaceRun<R> {
  config: SolverConfig;
  result: R;
  ms: number;
}

/** How a race ended: the run whose result stands, and every run with its time. */
export interface RaceOutcome<R> {
  winner: RaceRun<R>;
  runs: Array<RaceRun<R>>;
}

/**
 * Runs `configs` at once (each with its own abort signal, aborted with `signal` too) and takes the
 * first decisive result: the others are aborted then, and awaited, so no solver outlives the race.
 * When none is decisive, the first configuration's result stands (what the horizon would have
 * given alone). `runOne` must resolve, not reject, for an aborted run; a rejection aborts the
 * others and is passed on once they have ended.
 */
export async function raceConfigs<R>(
  configs: readonly SolverConfig[],
  runOne: (config: SolverConfig, signal: AbortSignal, index: number) => Promise<R>,
  decisive: (result: R) => boolean,
  signal?: AbortSignal,
): Promise<RaceOutcome<R>> {
  const controllers = configs.map(() => new AbortController());
  const abortAll = (): void => controllers.forEach((c) => c.abort(signal?.reason ?? 'race decided'));
  signal?.addEventListener('abort', abortAll, { once: true });
  if (signal?.aborted) abortAll();
  let winner: RaceRun<R> | undefined;
  let failure: Error | undefined;
  const started = performance.now();
  try {
    const runs = await Promise.all(
      configs.map(async (config, index): Promise<RaceRun<R> | undefined> => {
        try {
          const result: R = await runOne(config, controllers[index]!.signal, index);
          const run: RaceRun<R> = { config, result, ms: Math.round(performance.now() - started) };
          if (winner === undefined && decisive(result)) {
            winner = run;
            controllers.forEach((c, i) => i !== index && c.abort('race decided'));
          }
          return run;
        } catch (err) {
          failure ??= err instanceof Error ? err : new Error(String(err));
          abortAll();
          return undefined;
        }
      }),
    );
    if (failure !== undefined) throw failure;
    const finished = runs.filter((run): run is RaceRun<R> => run !== undefined);
    return { winner: winner ?? finished[0]!, runs: finished };
  } finally {
    signal?.removeEventListener('abort', abortAll);
  }
}

/**
 * A record kept in a JSON file, so that the solves of one machine learn from each other: read at
 * each race, rewritten whole (through a temporary file of its own and a rename) after it. The
 * races of one process are added one after another; two processes racing at once may lose one
 * race's entries, never the file.
 */
export class FilePortfolioRecord implements PortfolioRecord {
  private pending: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  async tallies(game: string, expected: ExpectedAnswer): Promise<ReadonlyMap<string, ConfigTally>> {
    const all = await this.read();
    return new Map(Object.entries(all[`${game}/${expected}`] ?? {}));
  }

  add(game: string, expected: ExpectedAnswer, race: readonly RaceEntry[]): Promise<void> {
    const added = this.pending.then(() => this.write(game, expected, race));
    this.pending = added.catch(() => undefined);
    return added;
  }

  private async write(game: string, expected: ExpectedAnswer, race: readonly RaceEntry[]): Promise<void> {
    const all = await this.read();
    const key = `${game}/${expected}`;
    const tallies = all[key] ?? {};
    for (const entry of race) tallies[entry.config] = tallied(tallies[entry.config], entry);
    all[key] = tallies;
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(all, null, 1)}\n`);
    await rename(temporary, this.path);
  }

  private async read(): Promise<Record<string, Record<string, ConfigTally>>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, Record<string, ConfigTally>>)
        : {};
    } catch {
      // No record yet, or one this version cannot read: the races start afresh.
      return {};
    }
  }
}

/** Where the CLI keeps its record: `SATFARM_PORTFOLIO_RECORD`, else the user's cache directory. */
export function defaultPortfolioRecordPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SATFARM_PORTFOLIO_RECORD) return env.SATFARM_PORTFOLIO_RECORD;
  const cache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'satfarm', 'portfolio-record.json');
}
