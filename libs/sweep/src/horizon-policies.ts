import { bracketPolicy } from './bracket.policy.js';
import { consecutivePolicy } from './consecutive.policy.js';
import type { HorizonPolicy } from './horizon-policy.js';
import { leapPolicy } from './leap.policy.js';
import { probePolicy } from './probe.policy.js';
import { UnknownPolicyError } from './sweep.error.js';

/**
 * The policies a user may name (the CLI's `--policy`, a job's `options.policy`): a fixed list. The
 * sweep itself never looks a name up; its caller passes the policy.
 */
export const HORIZON_POLICIES: readonly HorizonPolicy[] = Object.freeze([
  consecutivePolicy,
  probePolicy,
  leapPolicy,
  bracketPolicy,
]);

/** The policy of `HORIZON_POLICIES` named `name`; throws `UnknownPolicyError` naming them all. */
export function horizonPolicy(name: string): HorizonPolicy {
  const policy = HORIZON_POLICIES.find((p) => p.name === name);
  if (policy === undefined) throw new UnknownPolicyError(name, horizonPolicyNames());
  return policy;
}

/** Names of `HORIZON_POLICIES`: `consecutive`, `probe`, `leap`, `bracket`. */
export function horizonPolicyNames(): string[] {
  return HORIZON_POLICIES.map((p) => p.name);
}
