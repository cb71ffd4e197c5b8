import { CnfFormula, pigeonhole } from '@satfarm/cnf';
import { pigeonLadderGame } from '@satfarm/engine/testing';
import { type GameDefinition, gameById, InputError } from '@satfarm/games';

/** A staircase: the optimum, the lower bound, and how hard each horizon below the optimum is. */
export interface Staircase {
  optimum: number;
  lower: number;
  /** Horizon t below the optimum is PHP(n + 1, n) with n = `holes[t]` (default 1). */
  holes: Record<string, number>;
}

/** A plan of a staircase: its length. */
export interface StaircasePlan {
  steps: number;
}

/**
 * A planning game whose hardness per horizon the caller chooses, for farm benchmarks and tests of
 * cancellation: horizon t < `optimum` is the UNSAT pigeonhole formula PHP(n + 1, n) (kissat: about
 * 0.07 s for n = 7, 0.4 s for n = 8, 1 s for n = 9, minutes for n = 12); horizon t >= `optimum` is
 * SAT at once. It is monotone, so a sweep over it is a real sweep, and a chosen horizon can stay
 * busy long after a decisive result made it useless.
 */
export const staircaseGame: GameDefinition<Staircase, StaircasePlan> = {
  id: 'cnf',
  planning: true,
  parse(input) {
    const o = input as Partial<Staircase> | null;
    if (typeof o !== 'object' || o === null || !Number.isInteger(o.optimum) || o.optimum! < 1) {
      throw new InputError('optimum', 'expected a positive integer');
    }
    return { optimum: o.optimum!, lower: o.lower ?? 0, holes: o.holes ?? {} };
  },
  lowerBound: (instance) => instance.lower,
  defaultMaxHorizon: (instance) => instance.optimum + 3,
  summarize: (instance) => `staircase to ${instance.optimum}`,
  encode(instance, t) {
    if (t >= instance.optimum) {
      const formula = new CnfFormula();
      formula.add([formula.pool.named('reached', t)]);
      return { formula, decode: () => ({ steps: t }) };
    }
    const n = instance.holes[t] ?? 1;
    return { formula: pigeonhole(n + 1, n), decode: () => ({ steps: -1 }) };
  },
  verify: (instance, plan, t) =>
    plan.steps === t && t >= instance.optimum
      ? { ok: true }
      : { ok: false, reason: 'no plan below the optimum' },
  render: (instance, plan) => ({ optimum: instance.optimum, steps: plan?.steps }),
};

/** The registry's games plus `staircase` and `pigeons` (the engine's pigeon ladder). */
export function gamesWithStaircase(name: string, field?: string): GameDefinition<unknown, unknown> {
  if (name === 'staircase') return staircaseGame;
  if (name === 'pigeons') return pigeonLadderGame;
  return gameById(name, field);
}

/** The same lookup as a farm's games module exports it (`FarmAppOptions.gamesModule`). */
export const lookup = gamesWithStaircase;
