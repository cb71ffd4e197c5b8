import type { GameDefinition } from '@satfarm/games';
import { createSolver, type SatSolver, type SolverName, type SolverProgress } from '@satfarm/solver';

import type { HorizonStats } from './horizon-solver.js';
import {
  candidateConfigs,
  configLabel,
  type ExpectedAnswer,
  orderConfigs,
  type PortfolioRecord,
  raceConfigs,
  type RacedRun,
  type RaceEntry,
  type SolverConfig,
} from './portfolio.js';
import { type HorizonRun, type HorizonRunResult, runHorizon } from './run-horizon.js';
import type { SlotPool } from './slot-pool.js';

/** How one horizon races, when it does. */
export interface HorizonPortfolio {
  /** Most configurations, the horizon's own included. */
  size: number;
  record: PortfolioRecord;
  slots: SlotPool;
  /** The expected answer the record is kept by. */
  expected: ExpectedAnswer;
}

/**
 * Runs one horizon as `runHorizon` does; with a portfolio, also under the record's next
 * configurations on slots no horizon waits for (as many as are free, up to its size). The first
 * decisive answer stands and the others stop; a lent slot goes back the moment the sweep wants it.
 * The race is recorded, so later ones order their configurations by it.
 */
export async function runHorizonRaced<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  run: HorizonRun,
  solver: SatSolver,
  controls: { signal?: AbortSignal; onProgress?: (progress: SolverProgress) => void },
  portfolio?: HorizonPortfolio,
): Promise<HorizonRunResult<S>> {
  if (portfolio === undefined || portfolio.size < 2) return runHorizon(game, instance, run, solver, controls);
  const primary: SolverConfig = { solver: solver.name, preset: run.preset ?? 'default', seed: run.seed ?? 0 };
  const ordered = orderConfigs(
    candidateConfigs(),
    await portfolio.record.tallies(game.id, portfolio.expected),
    primary,
  ).slice(0, portfolio.size);
  const lent: Array<{ release: () => void; gaveWay: AbortController }> = [];
  for (let i = 1; i < ordered.length; i++) {
    const gaveWay = new AbortController();
    const release = portfolio.slots.acquireSpare(() => gaveWay.abort('gave way'));
    if (release === undefined) break;
    lent.push({ release, gaveWay });
  }
  if (lent.length === 0) return runHorizon(game, instance, run, solver, controls);
  const racing = ordered.slice(0, lent.length + 1);
  const solvers = new Map<SolverName, SatSolver>([[solver.name, solver]]);
  const solverOf = (name: SolverName): SatSolver => {
    if (!solvers.has(name)) solvers.set(name, createSolver(name));
    return solvers.get(name)!;
  };
  try {
    const { winner, runs } = await raceConfigs<HorizonRunResult<S>>(
      racing,
      async (config, raceSignal, index) => {
        const sibling = index === 0 ? undefined : lent[index - 1]!;
        const signal =
          sibling === undefined ? raceSignal : AbortSignal.any([raceSignal, sibling.gaveWay.signal]);
        try {
          return await runHorizon(
            game,
            instance,
            { ...run, preset: config.preset, seed: config.seed },
            solverOf(config.solver),
            { signal, ...(index === 0 && controls.onProgress ? { onProgress: controls.onProgress } : {}) },
          );
        } catch (err) {
          // Another configuration failing (its solver missing, a crash) costs the race nothing.
          if (index === 0) throw err;
          return {
            result: 'unknown',
            reason: (err as Error).message,
            stats: emptyStats(),
          };
        } finally {
          sibling?.release();
        }
      },
      (result) => result.result === 'sat' || result.result === 'unsat',
      controls.signal,
    );
    const decided = winner.result.result === 'sat' || winner.result.result === 'unsat';
    const gaveWay = (config: SolverConfig): boolean =>
      lent[racing.indexOf(config) - 1]?.gaveWay.signal.aborted === true;
    // A configuration that gave its slot back neither won nor lost; one stopped by the winner lost.
    const entries: RaceEntry[] = runs
      .filter((r) => !gaveWay(r.config))
      .map((r) => ({ config: configLabel(r.config), won: decided && r === winner, ms: r.ms }));
    // The record only orders later races: a failure to keep it must not lose this horizon's answer.
    if (!controls.signal?.aborted)
      await portfolio.record.add(game.id, portfolio.expected, entries).catch((err: unknown) => {
        process.emitWarning(
          `portfolio record not updated: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    const raced: RacedRun[] = runs
      .filter((r) => r !== winner)
      .map((r) => ({
        config: configLabel(r.config),
        result: r.result.result,
        ms: r.ms,
        ...(gaveWay(r.config) ? { gaveWay: true as const } : {}),
      }));
    return { ...winner.result, stats: { ...winner.result.stats, config: configLabel(winner.config), raced } };
  } finally {
    for (const { release } of lent) release();
  }
}

function emptyStats(): HorizonStats {
  return { vars: 0, clauses: 0, solver: '', solverMs: 0, encodeMs: 0 };
}
