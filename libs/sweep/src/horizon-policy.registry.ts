import { bracketPolicy } from './bracket.policy.js';
import { consecutivePolicy } from './consecutive.policy.js';
import type { HorizonPolicy } from './horizon-policy.js';
import { leapPolicy } from './leap.policy.js';
import { probePolicy } from './probe.policy.js';
import { UnknownPolicyError } from './sweep.error.js';

const policies = new Map<string, HorizonPolicy>(
  [consecutivePolicy, probePolicy, leapPolicy, bracketPolicy].map((p) => [p.name, p]),
);

/** The policy registered under `name`; throws `UnknownPolicyError` naming the known ones. */
export function horizonPolicy(name: string): HorizonPolicy {
  const policy = policies.get(name);
  if (policy === undefined) throw new UnknownPolicyError(name, horizonPolicyNames());
  return policy;
}

/** Names of the registered policies (`consecutive`, `probe`, `leap`, `bracket`, and any registered since). */
export function horizonPolicyNames(): string[] {
  return [...policies.keys()];
}

/**
 * Makes a policy available by name (a sweep state stores only the name, so a process restoring a
 * state registers its custom policies first). Registering a second policy under a taken name is
 * refused.
 */
export function registerHorizonPolicy(policy: HorizonPolicy): void {
  const taken = policies.get(policy.name);
  if (taken !== undefined && taken !== policy) {
    throw new RangeError(`a horizon policy named "${policy.name}" is already registered`);
  }
  policies.set(policy.name, policy);
}
