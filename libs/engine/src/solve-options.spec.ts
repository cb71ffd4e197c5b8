import { describe, expect, it } from 'vitest';

import { gameById, MAX_HORIZON, SolverNameSchema } from '@satfarm/games';
import { SOLVER_NAMES } from '@satfarm/solver';

import { sweepLowerBound, sweepMax } from './solve-instance.js';
import { checkSolveOptions, GIVEN_PLAN } from './solve-options.js';
import { type PigeonPlan, pigeonLadderGame } from './testing/pigeon-ladder.game.js';
import { refusal } from './testing/refusal.js';

/** The pigeon ladder (default largest horizon: pigeons + 4), taking a plan as it is. */
const pigeons = { ...pigeonLadderGame, parsePlan: (input: unknown) => input as PigeonPlan };
const cnf = gameById('cnf');
const farm = { maxHorizon: 8, setBy: 'on this farm' };

describe(checkSolveOptions.name, () => {
  it("applies the game's defaults to a planning game's sweep", () => {
    expect(checkSolveOptions(pigeons, { pigeons: 5 }, {})).toEqual({
      maxHorizon: 9,
      policy: 'consecutive',
      presets: false,
    });
    const cube = { ...pigeons, defaultPolicy: 'leap', solverPresets: true };
    expect(checkSolveOptions(cube, { pigeons: 5 }, {})).toMatchObject({ policy: 'leap', presets: true });
    expect(
      checkSolveOptions(
        cube,
        { pigeons: 5 },
        { policy: 'bracket', patienceSec: 2, presets: false, minHorizon: 3 },
      ),
    ).toEqual({ maxHorizon: 9, minHorizon: 3, policy: 'bracket', patienceSec: 2, presets: false });
  });

  it('takes a split for a game that splits its horizons, and refuses it for one that does not', () => {
    const cube = gameById('cube');
    const scrambled = cube.parse({ size: 2, scramble: 'R U' });
    expect(checkSolveOptions(cube, scrambled, { split: 20 }).splitAfterSec).toBe(20);
    expect(checkSolveOptions(cube, scrambled, { split: 0 }).splitAfterSec).toBe(0);
    expect(checkSolveOptions(cube, scrambled, { split: 'off' }).splitAfterSec).toBeUndefined();
    expect(refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { split: 5 }))).toMatchObject({
      field: 'split',
      reason: 'game cnf does not split its horizons into cubes',
    });
    expect(checkSolveOptions(pigeons, { pigeons: 5 }, { split: 'off' }).splitAfterSec).toBeUndefined();
    expect(refusal(() => checkSolveOptions(cnf, cnf.parse('p cnf 1 1\n1 0\n'), { split: 5 }))).toMatchObject({
      field: 'split',
      reason: 'applies to planning games with a horizon sweep, not to cnf',
    });
  });

  it("trusts a bound only a search proves: the cube's, and no other game's", () => {
    const cube = gameById('cube');
    const instance = cube.parse({ size: 3, scramble: 'R U F' });
    expect(checkSolveOptions(cube, instance, { trustBound: true }).boundProof).toBe(cube.boundProof);
    // Trusted by default, unless the user says not to or asks for checked solver proofs.
    expect(checkSolveOptions(cube, instance, {}).boundProof).toBe(cube.boundProof);
    expect(checkSolveOptions(cube, instance, { trustBound: false }).boundProof).toBeUndefined();
    expect(checkSolveOptions(cube, instance, { certify: true }).boundProof).toBeUndefined();
    expect(checkSolveOptions(cube, instance, { certify: true, trustBound: true }).boundProof).toBe(
      cube.boundProof,
    );
    // Three moves from solved, inside the goal perimeter: the bound is the exact distance.
    expect(sweepLowerBound(cube, instance, true)).toBe(3);
    expect(sweepLowerBound(cube, instance)).toBe(2);
    const snake = gameById('snake');
    const apples = snake.parse({ width: 4, height: 4, length: 2, start: [0, 0], apples: [[3, 3]] });
    const err = refusal(() => checkSolveOptions(snake, apples, { trustBound: true }));
    expect(err).toMatchObject({ field: 'trustBound' });
    expect(err.reason).toMatch(/not proven by a search/);
    // A game without a proof is not trusted by default, and starts one below whatever the caller asks.
    expect(checkSolveOptions(snake, apples, {}).boundProof).toBeUndefined();
    expect(sweepLowerBound(snake, apples, true)).toBe(snake.lowerBound(apples) - 1);
  });

  it('runs no horizon above one known SAT, unless a hint asks for it', () => {
    expect(sweepMax(20, undefined)).toBe(20);
    expect(sweepMax(20, 9)).toBe(9);
    expect(sweepMax(8, 9)).toBe(8);
    expect(sweepMax(20, 9, 12)).toBe(12);
    expect(sweepMax(20, 9, 5)).toBe(9);
  });

  it('gives a single-solve game horizon 0 and no sweep to steer', () => {
    expect(checkSolveOptions(cnf, cnf.parse('p cnf 1 1\n1 0\n'), { unique: true, timeoutSec: 3 })).toEqual({
      maxHorizon: 0,
      policy: 'consecutive',
      presets: false,
    });
  });

  it("caps the largest horizon where the solve runs: a larger ask is refused, the game's default cut down", () => {
    expect(refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { maxHorizon: 9 }, farm))).toMatchObject({
      field: 'maxHorizon',
      reason: 'must be at most 8 on this farm, got 9',
    });
    expect(checkSolveOptions(pigeons, { pigeons: 5 }, {}, farm).maxHorizon).toBe(8);
    expect(
      refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { maxHorizon: MAX_HORIZON + 1 })),
    ).toMatchObject({
      field: 'maxHorizon',
      reason: `must be at most ${MAX_HORIZON}, got ${MAX_HORIZON + 1}`,
    });
  });

  it('refuses a minHorizon above the largest horizon, asked for or the default', () => {
    expect(
      refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { maxHorizon: 6, minHorizon: 7 })),
    ).toMatchObject({ field: 'minHorizon', reason: 'must be at most the largest horizon, 6; got 7' });
    expect(refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { minHorizon: 9 }, farm))).toMatchObject({
      field: 'minHorizon',
      reason: 'must be at most the largest horizon, 8; got 9',
    });
    expect(checkSolveOptions(pigeons, { pigeons: 5 }, { minHorizon: 9 }).minHorizon).toBe(9);
  });

  it('refuses, naming the option, what the game would ignore, before the horizons', () => {
    const instance = cnf.parse('p cnf 1 1\n1 0\n');
    expect(refusal(() => checkSolveOptions(cnf, instance, { maxHorizon: 3000 }, farm))).toMatchObject({
      field: 'maxHorizon',
      reason: 'applies to planning games with a horizon sweep, not to cnf',
    });
    expect(refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { unique: true }))).toMatchObject({
      field: 'unique',
    });
    expect(
      refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { policy: 'leap', patienceSec: 1 })),
    ).toMatchObject({ field: 'patienceSec' });
    expect(refusal(() => checkSolveOptions(cnf, instance, { encoding: {} }))).toMatchObject({
      field: 'encoding',
    });
  });

  it("refuses an unknown policy, the caller's or the game's own", () => {
    expect(refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { policy: 'sideways' }))).toMatchObject({
      field: 'policy',
      reason: expect.stringMatching(/sideways/) as unknown,
    });
    const broken = { ...pigeons, defaultPolicy: 'nope' };
    expect(refusal(() => checkSolveOptions(broken, { pigeons: 5 }, {})).field).toBe('policy');
  });

  it('verifies a given plan against the largest horizon and the simulator', () => {
    const plan = { holes: [0, 1, 2, 3, 4] };
    expect(checkSolveOptions(pigeons, { pigeons: 5 }, { plan }).givenPlan).toEqual({
      plan,
      length: 5,
      by: GIVEN_PLAN,
    });
    expect(refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { plan, maxHorizon: 4 }))).toMatchObject({
      field: 'plan',
      reason: 'takes 5 moves, more than the largest horizon 4',
    });
    expect(
      refusal(() => checkSolveOptions(pigeons, { pigeons: 5 }, { plan: { holes: [0, 0, 1, 2, 3] } })),
    ).toMatchObject({ field: 'plan', reason: 'does not solve the instance: two pigeons share a hole' });
  });
});

describe('SolverNameSchema', () => {
  it('names the solvers @satfarm/solver runs, no more and no fewer', () => {
    expect([...SolverNameSchema.options].sort()).toEqual([...SOLVER_NAMES].sort());
  });
});
