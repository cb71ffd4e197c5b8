import type { ExpectedAnswer, RacedRun, RaceEntry } from '@satfarm/engine';
import type { FinishedReport } from '@satfarm/queue';
import { horizonPreset, horizonRecord } from '@satfarm/sweep';

import type { JobMeta, JobState, RaceLog } from './job-record.js';

/** What a decided race leaves for the portfolio record: the runs that took part, by expected answer. */
export interface DecidedRace {
  game: string;
  expected: ExpectedAnswer;
  entries: RaceEntry[];
}

/** Whether `meta`'s horizons race a portfolio (docs/farm.md#portfolio). */
export function races(meta: JobMeta): boolean {
  return (meta.options.portfolio ?? 1) > 1;
}

/** The answer horizon `t` is expected to give, by the sweep's lower bound `lower`. */
export function expectedAnswer(meta: JobMeta, lower: number, t: number): ExpectedAnswer {
  if (!meta.planning) return 'either';
  return horizonPreset(t, lower, meta.satFrom);
}

/** `state` with one run of horizon `t` logged as started or ended. */
export function logRun(
  state: JobState,
  t: number,
  config: string,
  entry: { startedAt?: number; result?: RaceLog[string]['result']; ms?: number; endedAt?: number },
): JobState {
  const log = state.races?.[t] ?? {};
  const previous = log[config];
  const startedAt = previous?.startedAt ?? entry.startedAt;
  const ms =
    entry.ms ??
    (entry.endedAt === undefined || startedAt === undefined ? undefined : entry.endedAt - startedAt);
  const next: RaceLog[string] = {
    ...(startedAt === undefined ? {} : { startedAt }),
    ...(entry.result === undefined ? {} : { result: entry.result }),
    ...(ms === undefined ? {} : { ms: Math.max(0, ms) }),
  };
  return { ...state, races: { ...state.races, [t]: { ...log, [config]: next } } };
}

/**
 * How horizon `t`'s race ended when `report` answered it: the other runs that had started, with
 * how long each ran (to the answer, for those it stopped), and the record's entries. Runs that gave
 * their slot back neither won nor lost, so the record leaves them out.
 */
export function decideRace(
  meta: JobMeta,
  before: JobState,
  report: FinishedReport,
): { raced: RacedRun[]; race: DecidedRace; config: string } {
  const winner = report.config ?? primaryConfig(meta, before, report.t);
  const answeredAt = report.startedAt + report.ms;
  const log: RaceLog = { ...before.races?.[report.t] };
  const primary = primaryConfig(meta, before, report.t);
  const startedAt = horizonRecord(before.sweep, report.t)?.startedAt;
  if (log[primary] === undefined && startedAt !== undefined) log[primary] = { startedAt };
  const raced: RacedRun[] = [];
  for (const [config, run] of Object.entries(log)) {
    if (config === winner || run.startedAt === undefined) continue;
    const ms = Math.max(0, Math.round(run.ms ?? answeredAt - run.startedAt));
    if (run.result === 'gave-way') raced.push({ config, result: 'unknown', ms, gaveWay: true });
    else raced.push({ config, result: run.result ?? 'cancelled', ms });
  }
  const entries: RaceEntry[] = [
    { config: winner, won: true, ms: Math.round(report.ms) },
    ...raced.filter((r) => r.gaveWay !== true).map((r) => ({ config: r.config, won: false, ms: r.ms })),
  ];
  return {
    raced,
    config: winner,
    race: { game: meta.game, expected: expectedAnswer(meta, before.sweep.lower, report.t), entries },
  };
}

/** The configuration of horizon `t`'s own run: the job's solver and preset, seed 0. */
export function primaryConfig(meta: JobMeta, state: JobState, t: number): string {
  const preset =
    meta.planning && meta.options.presets ? (t <= state.sweep.lower ? 'unsat' : 'sat') : 'default';
  return `${meta.options.solver}/${preset}/0`;
}
