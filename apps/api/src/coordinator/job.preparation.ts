import { randomUUID } from 'node:crypto';

import {
  checkSolveOptions,
  sweepLowerBound,
  sweepMax,
  sweepSatFrom,
  type SweepSettings,
} from '@satfarm/engine';
import type { GameDefinition } from '@satfarm/games';
import { DEFAULT_PROOF_LIMIT_MIB, InputError } from '@satfarm/games';
import { type JobRequest, PayloadError } from '@satfarm/queue';
import { horizonPolicy, initSweepState, type KnownPlan, patienceMsOf } from '@satfarm/sweep';

import type { SearchedBound } from './bound.pool.js';
import type { GameLookup, JobInstances } from './job-instances.js';
import type { JobMeta, JobState, ResolvedJobOptions } from './job-record.js';

/** The farm's limits and defaults for new jobs. */
export interface CoordinatorSettings {
  /** The largest `maxHorizon` a job may ask for, and the cap on a game's default. */
  maxHorizon: number;
  /** Horizons in flight per job when the job does not say. */
  defaultParallelism: number;
  /** The solver of jobs that name none (SATFARM_SOLVER); unset: the game's default, else kissat. */
  solver?: ResolvedJobOptions['solver'];
  /** Level files a job's instance may name besides a game's installed one (FarmConfig.levelFiles). */
  levelFiles: readonly string[];
  /** Configurations a horizon races under when the job does not say (SATFARM_PORTFOLIO); unset: off. */
  portfolio?: number;
  /** Certify jobs that do not say (SATFARM_CERTIFY); unset: off. */
  certify?: boolean;
  /** The proof cap of certified jobs that do not say, MiB (SATFARM_PROOF_LIMIT_MIB); unset: 4096. */
  proofLimitMiB?: number;
}

/** What checking and parsing a new job takes. */
export interface PreparationContext {
  games: GameLookup;
  settings: CoordinatorSettings;
  instances: Pick<JobInstances, 'parse'>;
  /** Whether new jobs' quick plans can be looked for (the farm has a `QuickPlanSource`). */
  quickPlans: boolean;
}

/** A new job, checked and parsed, ready to be stored. */
export interface Prepared {
  meta: JobMeta;
  instance: unknown;
  parsed: unknown;
  game: GameDefinition<unknown, unknown>;
  /** The plan the client gave (`options.plan`), verified. */
  given?: KnownPlan<unknown>;
  /** Whether to look for the game's quick plan once the job is stored. */
  quickPlan: boolean;
  /** What the game's bound search found off the event loop (`SearchedBound`), for the quick plan's thread. */
  searched?: SearchedBound;
}

/** Whose a new job is, and where it stands in its batch. */
export interface JobPlace {
  owner?: string | undefined;
  batchId?: string;
  position?: number;
}

/**
 * Checks a new job as a solve in this process is checked, with the farm's defaults and limits,
 * and parses its instance; a bad field is a `PayloadError` naming it under `root`.
 */
export function prepareJob(
  ctx: PreparationContext,
  request: JobRequest,
  root: string,
  now: number,
  place: JobPlace,
  searched?: SearchedBound,
): Prepared {
  const { batchId } = place;
  const { settings } = ctx;
  const game = ctx.games(request.game, `${root}game`);
  let parsed: unknown;
  try {
    parsed = ctx.instances.parse(game, request.instance);
  } catch (err) {
    if (err instanceof InputError) {
      const field =
        err.field === 'input' || err.field === 'instance'
          ? `${root}instance`
          : `${root}instance.${err.field}`;
      throw new PayloadError([{ field, reason: err.reason }]);
    }
    throw err;
  }
  // The bound, searched in another thread: the checks and the sweep's start below answer from it.
  if (searched !== undefined) game.searchedBound?.adopt(parsed, searched.found);
  const o = request.options ?? {};
  // Certified jobs (docs/farm.md#certified-jobs): the job's word, else the farm's SATFARM_CERTIFY.
  const certify = o.certify ?? settings.certify;
  let checked: SweepSettings<unknown>;
  try {
    // The checks of a solve in this process: an option the game would ignore is refused, as the
    // CLI refuses its flag, and the horizons are capped by the farm's SATFARM_MAX_HORIZON.
    // A farm's default (SATFARM_CERTIFY, SATFARM_SOLVER) is checked as if the job had asked for it.
    checked = checkSolveOptions(
      game,
      parsed,
      {
        ...o,
        ...(certify === undefined ? {} : { certify }),
        ...(certify === true && o.solver === undefined && settings.solver !== undefined
          ? { solver: settings.solver }
          : {}),
      },
      {
        maxHorizon: settings.maxHorizon,
        setBy: 'on this farm',
      },
    );
  } catch (err) {
    if (err instanceof InputError) {
      throw new PayloadError([{ field: `${root}options.${err.field}`, reason: err.reason }]);
    }
    throw err;
  }
  const options: ResolvedJobOptions = {
    maxHorizon: checked.maxHorizon,
    ...(checked.minHorizon === undefined ? {} : { minHorizon: checked.minHorizon }),
    parallelism: game.planning ? (o.parallelism ?? settings.defaultParallelism) : 1,
    ...(o.timeoutSec === undefined ? {} : { timeoutSec: o.timeoutSec }),
    solver: o.solver ?? settings.solver ?? game.defaultSolver ?? 'kissat',
    priority: o.priority ?? 0,
    unique: o.unique ?? false,
    policy: checked.policy,
    ...(checked.patienceSec === undefined ? {} : { patienceSec: checked.patienceSec }),
    presets: checked.presets,
    ...(o.encoding === undefined ? {} : { encoding: o.encoding }),
    ...portfolioOption(o.portfolio, settings.portfolio),
    ...(checked.splitAfterSec === undefined ? {} : { split: checked.splitAfterSec }),
    ...(certify === true
      ? { certify: { proofLimitMiB: o.proofLimitMiB ?? settings.proofLimitMiB ?? DEFAULT_PROOF_LIMIT_MIB } }
      : {}),
  };
  const given = checked.givenPlan;
  const lower = game.planning ? sweepLowerBound(game, parsed, checked.boundProof !== undefined) : 0;
  const satFrom = game.planning ? sweepSatFrom(game, parsed, checked) : undefined;
  const meta: JobMeta = {
    id: randomUUID(),
    ...(batchId === undefined ? {} : { batchId }),
    ...(place.position === undefined ? {} : { batchPosition: place.position }),
    ...(place.owner === undefined ? {} : { owner: place.owner }),
    // The name the client used: workers look the game up by it.
    game: request.game,
    summary: summaryOf(game, parsed),
    planning: game.planning,
    options,
    createdAt: now,
    lowerBound: lower,
    ...(checked.boundProof === undefined ? {} : { boundProof: checked.boundProof }),
    ...(satFrom === undefined ? {} : { satFrom }),
    ...(o.timeoutSec === undefined ? {} : { deadline: now + Math.round(o.timeoutSec * 1000) }),
  };
  const quickPlan = game.planning && game.quickPlan !== undefined && o.quickPlan !== false && ctx.quickPlans;
  return {
    meta,
    instance: request.instance,
    parsed,
    game,
    quickPlan,
    ...(given === undefined ? {} : { given }),
    ...(searched === undefined ? {} : { searched }),
  };
}

/** The job's portfolio size: its own `options.portfolio`, else the farm's; absent when off. */
function portfolioOption(
  asked: number | 'off' | undefined,
  farmDefault: number | undefined,
): { portfolio?: number } {
  const size = asked === undefined ? farmDefault : asked === 'off' ? 1 : asked;
  return size === undefined || size < 2 ? {} : { portfolio: size };
}

/** The sweep a new job starts from. */
export function initialSweep(meta: JobMeta): JobState['sweep'] {
  return initSweepState({
    lower: meta.lowerBound,
    max: sweepMax(meta.options.maxHorizon, meta.satFrom, meta.options.minHorizon),
    parallelism: meta.options.parallelism,
    policy: horizonPolicy(meta.options.policy),
    ...(meta.options.patienceSec === undefined ? {} : { patienceMs: patienceMsOf(meta.options.patienceSec) }),
    ...(meta.options.minHorizon === undefined ? {} : { hint: meta.options.minHorizon }),
  });
}

/** The game's summary of an instance; a game whose summary fails still takes the job. */
function summaryOf(game: GameDefinition<unknown, unknown>, parsed: unknown): string | undefined {
  try {
    return game.summarize(parsed);
  } catch {
    return undefined;
  }
}
