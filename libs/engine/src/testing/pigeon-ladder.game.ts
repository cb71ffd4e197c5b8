import { pigeonhole } from '@satfarm/cnf';
import type { GameDefinition } from '@satfarm/games';

/** A planning game for tests of sweeps: put `pigeons` pigeons into `t` holes. */
export interface PigeonLadder {
  pigeons: number;
  /** The admissible lower bound the game claims (default 1); `pigeons` makes it tight. */
  lowerBound?: number;
}

/** Which hole each pigeon sits in. */
export interface PigeonPlan {
  holes: number[];
}

/**
 * A planning game with a known optimum for exercising sweeps with the real solver: horizon t
 * means t holes, so SAT(t) holds exactly when t >= pigeons, it is monotone, and the UNSAT proofs
 * just below the optimum get hard quickly (docs/solvers.md#pigeonhole-formulas).
 */
export const pigeonLadderGame: GameDefinition<PigeonLadder, PigeonPlan> = {
  id: 'cnf',
  planning: true,
  parse: (input) => input as PigeonLadder,
  lowerBound: (i) => i.lowerBound ?? 1,
  defaultMaxHorizon: (i) => i.pigeons + 4,
  summarize: (i) => `${i.pigeons} pigeons`,
  encode: (instance, t) => {
    const formula = pigeonhole(instance.pigeons, t);
    return {
      formula,
      decode: (model) => ({
        holes: Array.from({ length: instance.pigeons }, (_, p) => {
          for (let h = 0; h < t; h++) if (model.named(formula.pool, 'in', p, h)) return h;
          return -1;
        }),
      }),
    };
  },
  verify: (instance, plan, t) => {
    if (plan.holes.length !== instance.pigeons) return { ok: false, reason: 'wrong number of pigeons' };
    if (plan.holes.some((h) => h < 0 || h >= t))
      return { ok: false, reason: 'a pigeon is outside the holes' };
    if (new Set(plan.holes).size !== plan.holes.length)
      return { ok: false, reason: 'two pigeons share a hole' };
    return { ok: true };
  },
  planLength: (plan) => new Set(plan.holes).size,
  render: () => undefined,
};
