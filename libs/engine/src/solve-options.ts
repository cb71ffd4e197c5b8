import {
  DEFAULT_PROOF_LIMIT_MIB,
  type EncodingChoices,
  type GameDefinition,
  InputError,
  MAX_HORIZON,
  type SolveUserOptions,
  SWEEP_ONLY_OPTIONS,
  type SweepOptionKey,
} from '@satfarm/games';
import { horizonPolicy, horizonPolicyNames, type KnownPlan, UnknownPolicyError } from '@satfarm/sweep';

/** The options that apply to some games only (`OptionScope` in libs/games/src/job-options.ts). */
export type ScopedOptions = Pick<SolveUserOptions, SweepOptionKey | 'unique'>;

/** The policies a user may name (`HORIZON_POLICIES`) that make patient probes, the only ones `patienceSec` changes. */
export function patientPolicyNames(): string[] {
  return horizonPolicyNames().filter((name) => horizonPolicy(name).patient === true);
}

/**
 * Refuses an option that `game` would ignore, so that no one believes it took effect: the sweep's
 * options on a single-solve game, `unique` on a planning game, a split on a game that does not
 * split, and a patience under a policy without patient probes (an unknown policy is left to the policy's own check). Throws an
 * `InputError` naming the option by `name` (the CLI's flag, the API's path into the request).
 */
export function checkOptionScope(
  game: Pick<GameDefinition<unknown, unknown>, 'id' | 'planning' | 'defaultPolicy' | 'split'>,
  options: ScopedOptions,
  name: (option: keyof ScopedOptions) => string = (option) => option,
): void {
  if (!game.planning) {
    const given = SWEEP_ONLY_OPTIONS.find((option) => options[option] !== undefined);
    if (given !== undefined) {
      throw new InputError(name(given), `applies to planning games with a horizon sweep, not to ${game.id}`);
    }
    return;
  }
  if (options.unique) {
    throw new InputError(name('unique'), `applies to puzzles with one solve, not to ${game.id}`);
  }
  if (options.split !== undefined && options.split !== 'off' && game.split === undefined) {
    throw new InputError(name('split'), `game ${game.id} does not split its horizons into cubes`);
  }
  if (options.patienceSec !== undefined) {
    const policy = options.policy ?? game.defaultPolicy ?? 'consecutive';
    let patient: boolean;
    try {
      patient = horizonPolicy(policy).patient === true;
    } catch (err) {
      if (err instanceof UnknownPolicyError) return;
      throw err;
    }
    if (!patient) {
      throw new InputError(
        name('patienceSec'),
        `applies to the policies with patient probes (${patientPolicyNames().join(', ')}), not to ${policy}`,
      );
    }
  }
}

/** Solvers that write DRAT proofs, so that `certify` can check their UNSAT answers. */
export const PROOF_SOLVERS: readonly string[] = ['kissat', 'cadical'];

/**
 * Refuses what `certify` cannot check (docs/solvers.md#certified-answers): a solver without
 * proofs (minisat), and a split, whose UNSAT rests on its cubes covering the horizon and on the
 * game's bound refuting some, not on one proof; and `proofLimitMiB` without `certify`.
 */
export function checkCertify(
  game: Pick<GameDefinition<unknown, unknown>, 'defaultSolver'>,
  options: Pick<SolveUserOptions, 'certify' | 'proofLimitMiB' | 'solver' | 'split'>,
): void {
  if (options.certify !== true) {
    if (options.proofLimitMiB !== undefined)
      throw new InputError('proofLimitMiB', 'applies to certified solves (certify)');
    return;
  }
  const solver = options.solver ?? game.defaultSolver ?? 'kissat';
  if (!PROOF_SOLVERS.includes(solver)) {
    throw new InputError(
      'solver',
      `${solver} writes no proofs, so certify cannot check its UNSAT answers (use ${PROOF_SOLVERS.join(' or ')})`,
    );
  }
  if (options.split !== undefined && options.split !== 'off') {
    throw new InputError(
      'split',
      "cannot be certified: a split horizon's UNSAT rests on its cubes and the game's bound, not on one proof",
    );
  }
}

/** The most bytes a certified run's proof may take: `proofLimitMiB`, else the default 4 GiB. */
export function proofLimitBytes(options: Pick<SolveUserOptions, 'proofLimitMiB'>): number {
  return (options.proofLimitMiB ?? DEFAULT_PROOF_LIMIT_MIB) * 1024 * 1024;
}

/** Refuses encoding choices the game does not have (an `InputError` naming `encoding`). */
export function checkEncoding<I, S>(game: GameDefinition<I, S>, encoding: EncodingChoices | undefined): void {
  if (encoding === undefined) return;
  if (game.checkEncoding === undefined) {
    throw new InputError('encoding', `game ${game.id} offers no encoding choices`);
  }
  game.checkEncoding(encoding);
}

/** The largest horizon a solve may ask for where it runs. */
export interface HorizonCap {
  /** The largest `maxHorizon` taken; a game's default above it is cut down to it. */
  readonly maxHorizon: number;
  /** Who sets the cap, for its error (`on this farm`); none: the code's own `MAX_HORIZON`. */
  readonly setBy?: string;
}

/** A solve's options checked against its game and instance, the game's defaults applied. */
export interface SweepSettings<S> {
  /** The largest horizon the sweep tries; 0 for a single-solve game. */
  maxHorizon: number;
  /** Where the sweep starts (`minHorizon`), at most `maxHorizon`: checked, never trusted. */
  minHorizon?: number;
  policy: string;
  patienceSec?: number;
  /** Seconds a horizon runs whole before it is split into cubes (`split`); absent: never split. */
  splitAfterSec?: number;
  presets: boolean;
  /** Start at the game's proven lower bound (`trustBound`): what proves it, when asked. */
  boundProof?: string;
  /** The caller's plan, read by the game and replayed by its simulator (`givenPlanOf`). */
  givenPlan?: KnownPlan<S>;
}

/**
 * Checks a solve's options against its game and instance, as one solve in this process and the
 * farm's coordinator both do before anything runs or is queued: the options the game would ignore
 * (`checkOptionScope`), its encoding choices, the policy, the horizons (`maxHorizon` at most
 * `cap`, `minHorizon` at most the largest horizon) and the plan. Each value's own kind and range is
 * the schema's (`SolveOptionsSchema`), checked first where the options come in. Throws an
 * `InputError` naming the option (`minHorizon`, `plan.moves`).
 */
export function checkSolveOptions<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  options: SolveUserOptions,
  cap: HorizonCap = { maxHorizon: MAX_HORIZON },
): SweepSettings<S> {
  checkOptionScope(game, options);
  checkCertify(game, options);
  checkEncoding(game, options.encoding);
  const policy = options.policy ?? game.defaultPolicy ?? 'consecutive';
  try {
    horizonPolicy(policy);
  } catch (err) {
    if (err instanceof UnknownPolicyError) throw new InputError('policy', err.message);
    throw err;
  }
  if (!game.planning) return { maxHorizon: 0, policy, presets: false };
  const asked = options.maxHorizon;
  if (asked !== undefined && asked > cap.maxHorizon) {
    const setBy = cap.setBy === undefined ? '' : ` ${cap.setBy}`;
    throw new InputError('maxHorizon', `must be at most ${cap.maxHorizon}${setBy}, got ${asked}`);
  }
  const maxHorizon = asked ?? Math.min(game.defaultMaxHorizon(instance), cap.maxHorizon);
  const { minHorizon, patienceSec, split } = options;
  if (minHorizon !== undefined && minHorizon > maxHorizon) {
    throw new InputError(
      'minHorizon',
      `must be at most the largest horizon, ${maxHorizon}; got ${minHorizon}`,
    );
  }
  if (options.trustBound === true && game.boundProof === undefined)
    throw new InputError(
      'trustBound',
      `${game.id}'s lower bound is not proven by a search, so the sweep starts one below it`,
    );
  // A bound a search proves is trusted unless the user asks for the solver's checked proof of
  // every answer (certify) or says otherwise (docs/cli.md, --trust-bound).
  const trustBound = options.trustBound ?? (game.boundProof !== undefined && options.certify !== true);
  const givenPlan =
    options.plan === undefined ? undefined : givenPlanOf(game, instance, options.plan, maxHorizon);
  return {
    maxHorizon,
    ...(minHorizon === undefined ? {} : { minHorizon }),
    policy,
    ...(patienceSec === undefined ? {} : { patienceSec }),
    ...(split === undefined || split === 'off' ? {} : { splitAfterSec: split }),
    presets: options.presets ?? game.solverPresets ?? false,
    ...(trustBound ? { boundProof: game.boundProof! } : {}),
    ...(givenPlan === undefined ? {} : { givenPlan }),
  };
}

/** What `HorizonLine.by` says of the horizon of a plan the caller gave (`SolveOptions.plan`). */
export const GIVEN_PLAN = 'given plan';

/**
 * The caller's plan as the sweep's known plan: read by the game (a whole report stands for its
 * `solution`), then replayed by the simulator. Bad input of any kind is an `InputError` naming
 * `plan`, before any solver runs (the farm's API checks a job's plan with it too).
 */
export function givenPlanOf<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  input: unknown,
  max: number,
): KnownPlan<S> {
  checkOptionScope(game, { plan: input });
  if (game.parsePlan === undefined || game.planLength === undefined) {
    throw new InputError('plan', `game ${game.id} does not take a plan`);
  }
  const plan = game.parsePlan(solutionOfReport(game.id, input), instance);
  const length = game.planLength(plan);
  if (length > max) {
    throw new InputError('plan', `takes ${length} moves, more than the largest horizon ${max}`);
  }
  const verdict = game.verify(instance, plan, length);
  if (!verdict.ok) throw new InputError('plan', `does not solve the instance: ${verdict.reason}`);
  return { plan, length, by: GIVEN_PLAN };
}

/** The `solution` of a solve report (an object with `game` and `status`), else `input` itself. */
function solutionOfReport(gameId: string, input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const report = input as Record<string, unknown>;
  if (!('game' in report && 'status' in report)) return input;
  if (report.game !== gameId) {
    throw new InputError('plan.game', `the report is of ${JSON.stringify(report.game)}, not of ${gameId}`);
  }
  if (report.solution === undefined || report.solution === null) {
    throw new InputError('plan.solution', `the report (status ${JSON.stringify(report.status)}) has no plan`);
  }
  return report.solution;
}
