import type { GameDefinition, GameId } from '@satfarm/games';
import type { SatSolver } from '@satfarm/solver';

import { type HorizonResult, type HorizonStats, VerificationError } from './horizon-solver.js';
import { type HorizonRun, type HorizonRunControls, runHorizon } from './run-horizon.js';
import type { SlotPool } from './slot-pool.js';

/**
 * One cube of a split horizon, as plain data (JSON): any process that has the game solves it by
 * `solveCube`, which is `runHorizon` on `instance` at `t`; the process that split the horizon
 * joins a plan it finds to `prefix` (`joinCube`) and verifies it from the original instance.
 */
export interface HorizonCube<I = unknown, S = unknown> {
  game: GameId;
  /** The horizon that was split, and this cube's place among its cubes. */
  splitT: number;
  index: number;
  /** The moves played first, as the game writes a plan of the original instance. */
  prefix: S;
  /** The horizon steps `prefix` takes. */
  depth: number;
  /** Where `prefix` leads, as an instance of the same game. */
  instance: I;
  /** The horizon the cube is solved at: `splitT - depth`. */
  t: number;
  /** The game's lower bound from `instance`: above `t`, the cube is refuted without a solver. */
  lowerBound: number;
}

/** A horizon split into cubes at one depth, or a plan the split met (verified) and no cube. */
export interface HorizonCubes<I, S> {
  t: number;
  depth: number;
  cubes: HorizonCube<I, S>[];
  plan?: { plan: S; planLength: number };
}

/** How deep a split goes (`splitHorizon`). */
export interface SplitDepthOptions {
  /** The fewest cubes left to a solver (not refuted by their bound) worth stopping at. */
  minCubes: number;
  /** The deepest split tried (default `MAX_SPLIT_DEPTH`). */
  maxDepth?: number;
  /** The most cubes taken: a deeper split with more keeps the shallower one (default `MAX_CUBES`). */
  maxCubes?: number;
}

/** The deepest split `splitHorizon` tries unless told otherwise. */
export const MAX_SPLIT_DEPTH = 4;
/** The most cubes `splitHorizon` takes unless told otherwise. */
export const MAX_CUBES = 4096;

/**
 * Splits horizon `t` of `instance` by the game's `split`, one move deeper at a time from 1 until
 * at least `minCubes` cubes are left to a solver (or none is: the bound refuted them all), a plan
 * is met, or the depth or cube count reaches its cap. Undefined when the game does not split, or
 * cannot at this horizon. A plan met is verified from `instance` at `t`, never trusted.
 */
export function splitHorizon<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  t: number,
  options: SplitDepthOptions,
): HorizonCubes<I, S> | undefined {
  if (game.split === undefined || game.joinPlan === undefined || t < 1) return undefined;
  const maxDepth = Math.min(options.maxDepth ?? MAX_SPLIT_DEPTH, t);
  const maxCubes = options.maxCubes ?? MAX_CUBES;
  let chosen: HorizonCubes<I, S> | undefined;
  for (let depth = 1; depth <= maxDepth; depth++) {
    const split = splitAtDepth(game, instance, t, depth);
    if (split === undefined || (chosen !== undefined && split.cubes.length > maxCubes)) break;
    if (split.plan !== undefined) return split;
    chosen = split;
    const open = split.cubes.filter((cube) => cube.lowerBound <= cube.t).length;
    if (open === 0 || open >= options.minCubes) break;
  }
  return chosen;
}

/**
 * Horizon `t` of `instance` split `depth` moves deep, as `splitHorizon` made it at that depth: the
 * same cubes in the same order, so a process that split a horizon (the farm's coordinator) can
 * make them again from the depth alone after a restart. Undefined when the game does not split
 * there; a plan met is verified from `instance` at `t`, as `splitHorizon` does.
 */
export function splitAtDepth<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  t: number,
  depth: number,
): HorizonCubes<I, S> | undefined {
  if (game.split === undefined || game.joinPlan === undefined || t < 1 || depth < 1 || depth > t)
    return undefined;
  const split = game.split(instance, depth, t);
  if (split === undefined) return undefined;
  if (split.plan !== undefined) {
    const verdict = game.verify(instance, split.plan, t);
    if (!verdict.ok) throw new VerificationError(game.id, t, `the split's plan: ${verdict.reason}`);
    return {
      t,
      depth,
      cubes: [],
      plan: { plan: split.plan, planLength: game.planLength?.(split.plan) ?? t },
    };
  }
  return { t, depth, cubes: cubesOf(game, t, split.cubes) };
}

/** A game's cubes of horizon `t` as `HorizonCube`s, indexed in the game's order. */
function cubesOf<I, S>(
  game: GameDefinition<I, S>,
  t: number,
  cubes: ReadonlyArray<{ prefix: S; depth: number; instance: I }>,
): HorizonCube<I, S>[] {
  return cubes.map((cube, index) => ({
    game: game.id,
    splitT: t,
    index,
    prefix: cube.prefix,
    depth: cube.depth,
    instance: cube.instance,
    t: t - cube.depth,
    lowerBound: game.lowerBound(cube.instance),
  }));
}

/** A cube's answer: `runHorizon`'s, or UNSAT by the game's lower bound (`bound`, no solver run). */
export type CubeResult<S> = HorizonResult<S> | { result: 'unsat'; bound: true; stats: HorizonStats };

/**
 * Solves one cube: UNSAT at once when its lower bound exceeds its horizon, else `runHorizon` on
 * its instance at its horizon (the plan it finds is verified from the cube's instance; `joinCube`
 * makes it a plan of the original instance).
 */
export async function solveCube<I, S>(
  game: GameDefinition<I, S>,
  cube: HorizonCube<I, S>,
  run: Omit<HorizonRun, 't' | 'unique'>,
  solver: SatSolver,
  controls: HorizonRunControls = {},
): Promise<CubeResult<S>> {
  if (cube.lowerBound > cube.t) {
    return {
      result: 'unsat',
      bound: true,
      stats: { vars: 0, clauses: 0, solver: await solver.version(), solverMs: 0, encodeMs: 0 },
    };
  }
  return runHorizon(game, cube.instance, { ...run, t: cube.t }, solver, controls);
}

/**
 * A cube's prefix and a plan from its instance as a plan of `instance`, verified by the game's
 * simulator from `instance` at the split horizon: a plan that fails is an error (a bug in the
 * game's split or join), never an answer.
 */
export function joinCube<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  cube: HorizonCube<I, S>,
  rest: S,
): { plan: S; planLength: number } {
  if (game.joinPlan === undefined) throw new Error(`game ${game.id} does not split its horizons`);
  const plan = game.joinPlan(instance, cube.prefix, rest);
  const verdict = game.verify(instance, plan, cube.splitT);
  if (!verdict.ok)
    throw new VerificationError(game.id, cube.splitT, `cube ${cube.index}'s plan joined: ${verdict.reason}`);
  return { plan, planLength: game.planLength?.(plan) ?? cube.splitT };
}

/** What a split horizon's record says of its proof. */
export interface SplitStats {
  /** The depth of the split (a cube may go deeper: `HorizonCube.depth`). */
  depth: number;
  cubes: number;
  /** Cubes proven to hold no plan, `bound` of them by the game's lower bound alone. */
  refuted: number;
  bound: number;
  /** Cubes a solver left without an answer (a timeout, a formula too large). */
  unanswered: number;
  /** The cube whose plan answered the horizon. */
  answeredBy?: { index: number; prefix: unknown };
  /** From the split to its answer, ms. */
  ms: number;
  /** How long the horizon ran whole before it was split, ms (absent: split at once). */
  afterMs?: number;
}

/** A split horizon's progress: how many of its cubes are refuted, the proof's share done. */
export interface SplitProgress {
  depth: number;
  cubes: number;
  refuted: number;
  unanswered: number;
}

/** A split horizon's answer: as a horizon's, with no model (the plan comes from a cube's). */
export type SplitHorizonResult<S> =
  | { result: 'sat'; plan: S; planLength: number; stats: HorizonStats }
  | Exclude<HorizonResult<S>, { result: 'sat' }>;

/** How a split horizon runs. */
export interface SplitRunControls {
  /** The solver slots its cubes share with everything else in the process. */
  slots: SlotPool;
  signal?: AbortSignal;
  /** The split made, then each cube answered. */
  onProgress?: (progress: SplitProgress) => void;
  /** Cubes left to a solver the split aims for (`runHorizonSplit`; default: twice the slots). */
  minCubes?: number;
  /** How long the horizon ran whole before the split, for the record. */
  afterMs?: number;
}

/**
 * Runs horizon `run.t` as cubes (`splitHorizon`, then `runCubes`). Undefined when the game does
 * not split, or cannot at this horizon.
 */
export async function runHorizonSplit<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  run: HorizonRun,
  solver: SatSolver,
  controls: SplitRunControls,
): Promise<SplitHorizonResult<S> | undefined> {
  const minCubes = controls.minCubes ?? 2 * controls.slots.size;
  const split = splitHorizon(game, instance, run.t, { minCubes });
  return split === undefined ? undefined : runCubes(game, instance, split, run, solver, controls);
}

/**
 * Runs a split horizon's cubes, as many at once as the slots give, lowest lower bound first (the
 * likeliest to hold a plan). A SAT cube stops the others and its plan, joined to its prefix, is
 * verified from `instance` (`joinCube`); every cube refuted proves the horizon UNSAT; a cube left
 * unanswered leaves it unknown.
 */
export async function runCubes<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  split: HorizonCubes<I, S>,
  run: HorizonRun,
  solver: SatSolver,
  controls: SplitRunControls,
): Promise<SplitHorizonResult<S>> {
  const started = performance.now();
  const { slots } = controls;
  const stats: HorizonStats = {
    vars: 0,
    clauses: 0,
    solver: await solver.version(),
    solverMs: 0,
    encodeMs: 0,
    ...(run.preset === 'sat' || run.preset === 'unsat' ? { preset: run.preset } : {}),
  };
  const record: SplitStats = {
    depth: split.depth,
    cubes: split.cubes.length,
    refuted: 0,
    bound: 0,
    unanswered: 0,
    ms: 0,
    ...(controls.afterMs === undefined ? {} : { afterMs: Math.round(controls.afterMs) }),
  };
  const done = (): HorizonStats => ({
    ...stats,
    split: { ...record, ms: Math.round(performance.now() - started) },
  });
  if (split.plan !== undefined) return { result: 'sat', ...split.plan, stats: done() };
  const queue = split.cubes.filter((cube) => cube.lowerBound <= cube.t);
  queue.sort((a, b) => a.lowerBound - b.lowerBound || a.index - b.index);
  record.refuted = record.bound = split.cubes.length - queue.length;
  const progress = (): void =>
    controls.onProgress?.({
      depth: record.depth,
      cubes: record.cubes,
      refuted: record.refuted,
      unanswered: record.unanswered,
    });
  progress();

  const stop = new AbortController();
  const signal =
    controls.signal === undefined ? stop.signal : AbortSignal.any([controls.signal, stop.signal]);
  const { t: _t, unique: _unique, ...cubeRun } = run;
  let answer: { cube: HorizonCube<I, S>; plan: S; planLength: number } | undefined;
  let failure: { error: unknown } | undefined;
  const reasons: string[] = [];
  const worker = async (): Promise<void> => {
    while (!signal.aborted && queue.length > 0) {
      const release = await slots.acquire(signal).catch(() => undefined);
      if (release === undefined) return;
      try {
        const cube = queue.shift();
        if (cube === undefined) return;
        const r = await solveCube(game, cube, cubeRun, solver, { signal });
        addStats(stats, r.stats);
        if (r.result === 'sat') {
          answer ??= { cube, ...joinCube(game, instance, cube, r.plan) };
          stop.abort();
        } else if (r.result === 'unsat') {
          record.refuted++;
          progress();
        } else if (r.result === 'unknown') {
          record.unanswered++;
          reasons.push(r.reason);
          progress();
        }
      } catch (error) {
        failure ??= { error };
        stop.abort();
      } finally {
        release();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots.size, queue.length) }, worker));
  if (failure !== undefined) throw failure.error;
  if (answer !== undefined) {
    record.answeredBy = { index: answer.cube.index, prefix: answer.cube.prefix };
    return { result: 'sat', plan: answer.plan, planLength: answer.planLength, stats: done() };
  }
  if (record.refuted === record.cubes) return { result: 'unsat', stats: done() };
  if (controls.signal?.aborted) return { result: 'cancelled', stats: done() };
  const open = record.cubes - record.refuted;
  return {
    result: 'unknown',
    reason: `${open} of ${record.cubes} cubes unanswered${reasons.length === 0 ? '' : ` (${reasons[0]})`}`,
    stats: done(),
  };
}

/** Adds one cube's figures to its horizon's: times and counts summed, the largest formula kept. */
function addStats(into: HorizonStats, cube: HorizonStats): void {
  if (cube.clauses > into.clauses) {
    into.vars = cube.vars;
    into.clauses = cube.clauses;
  }
  into.solverMs += cube.solverMs;
  into.encodeMs += cube.encodeMs;
  if (cube.conflicts !== undefined) into.conflicts = (into.conflicts ?? 0) + cube.conflicts;
  if (cube.solverCpuMs !== undefined) into.solverCpuMs = (into.solverCpuMs ?? 0) + cube.solverCpuMs;
  if (cube.solverPeakRssKiB !== undefined)
    into.solverPeakRssKiB = Math.max(into.solverPeakRssKiB ?? 0, cube.solverPeakRssKiB);
}
