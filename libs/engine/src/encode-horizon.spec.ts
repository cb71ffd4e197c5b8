import { describe, expect, it } from 'vitest';

import { gameById, MAX_HORIZON } from '@satfarm/games';

import { checkHorizonRequest, encodeHorizon } from './encode-horizon.js';
import { refusal } from './testing/refusal.js';

const cube = gameById('cube');
const towers = gameById('towers');
const singles = gameById('singles');

describe(checkHorizonRequest.name, () => {
  it("takes a planning game's horizon and gives a single-solve game horizon 0", () => {
    expect(checkHorizonRequest(cube, { horizon: 7 })).toBe(7);
    expect(checkHorizonRequest(cube, { horizon: MAX_HORIZON })).toBe(MAX_HORIZON);
    expect(checkHorizonRequest(towers, {})).toBe(0);
  });

  it('refuses a missing, negative or too large horizon, and any on a single-solve game, naming it', () => {
    expect(refusal(() => checkHorizonRequest(cube, {})).message).toMatch(/^horizon: required for cube/);
    expect(refusal(() => checkHorizonRequest(cube, { horizon: -1 })).field).toBe('horizon');
    expect(refusal(() => checkHorizonRequest(cube, { horizon: 1.5 })).field).toBe('horizon');
    expect(refusal(() => checkHorizonRequest(cube, { horizon: MAX_HORIZON + 1 })).message).toContain(
      `at most ${MAX_HORIZON}`,
    );
    const single = refusal(() => checkHorizonRequest(towers, { horizon: 0 }, (f) => `--${f}`));
    expect(single.message).toMatch(/^--horizon: applies to planning games/);
  });

  it('refuses encoding choices the game lacks', () => {
    expect(refusal(() => checkHorizonRequest(cube, { horizon: 3, encoding: { x: 1 } })).field).toBe(
      'encoding',
    );
    expect(
      refusal(() => checkHorizonRequest(gameById('hexahop'), { horizon: 3, encoding: { nope: true } })).field,
    ).toBe('encoding.nope');
  });
});

describe(encodeHorizon.name, () => {
  it("is the game's own formula at that horizon, with what its answers mean", () => {
    const instance = cube.parse({ size: 2, scramble: 'R U' });
    const built = encodeHorizon(cube, instance, { horizon: 2 });
    expect(built.horizon).toBe(2);
    expect(built.encoded.formula.toDimacs()).toBe(cube.encode(instance, 2).formula.toDimacs());
    expect(built.meaning.sat).toContain('at most 2 moves');
    expect(built.meaning.notes).toEqual([]);
  });

  it("says when a model is not yet a solution (a lazy encoding's)", () => {
    const built = encodeHorizon(singles, singles.parse('3x3:123231312'), {});
    expect(built.meaning.notes.join(' ')).toContain('lazy encoding');
  });
});
