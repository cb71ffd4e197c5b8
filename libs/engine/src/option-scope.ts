import { type GameDefinition, InputError } from '@satfarm/games';
import { horizonPolicy, horizonPolicyNames, UnknownPolicyError } from '@satfarm/sweep';

/** The options that apply to some games only, by the names `SolveOptions` and the API's job options share. */
export interface ScopedOptions {
  maxHorizon?: number;
  minHorizon?: number;
  plan?: unknown;
  policy?: string;
  patienceSec?: number;
  presets?: boolean;
  quickPlan?: boolean;
  unique?: boolean;
}

/** The options only a horizon sweep reads: a single-solve game (one formula, horizon 0) refuses them. */
export const SWEEP_ONLY_OPTIONS = [
  'maxHorizon',
  'minHorizon',
  'plan',
  'policy',
  'patienceSec',
  'presets',
  'quickPlan',
] as const satisfies ReadonlyArray<keyof ScopedOptions>;

/** The policies a user may name (`HORIZON_POLICIES`) that make patient probes, the only ones `patienceSec` changes. */
export function patientPolicyNames(): string[] {
  return horizonPolicyNames().filter((name) => horizonPolicy(name).patient === true);
}

/**
 * Refuses an option that `game` would ignore, so that no one believes it took effect: the sweep's
 * options on a single-solve game, `unique` on a planning game, and a patience under a policy
 * without patient probes (an unknown policy is left to the policy's own check). Throws an
 * `InputError` naming the option by `name` (the CLI's flag, the API's path into the request).
 */
export function checkOptionScope(
  game: Pick<GameDefinition<unknown, unknown>, 'id' | 'planning' | 'defaultPolicy'>,
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
