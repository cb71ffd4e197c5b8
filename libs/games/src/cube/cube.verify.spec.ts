import { describe, expect, it } from 'vitest';

import type { Verdict } from '../game-definition.js';
import { parseCubeInstance } from './cube.parse.js';
import { renderCube } from './cube.render.js';
import { cubePlanLength, verifyCube } from './cube.verify.js';

const reasonOf = (v: Verdict): string => (v.ok ? 'ok' : v.reason);

describe(verifyCube.name, () => {
  const instance = parseCubeInstance({ size: 3, scramble: "R U2 F'" });

  it('accepts the undoing moves and reports their cost', () => {
    expect(verifyCube(instance, { moves: ['F', 'U2', "R'"] }, 3)).toEqual({ ok: true, cost: 3 });
  });

  it('counts a half turn twice in the quarter-turn metric', () => {
    const qtm = parseCubeInstance({ size: 3, scramble: "R U2 F'", metric: 'qtm' });
    expect(verifyCube(qtm, { moves: ['F', 'U2', "R'"] }, 4)).toEqual({ ok: true, cost: 4 });
    expect(reasonOf(verifyCube(qtm, { moves: ['F', 'U2', "R'"] }, 3))).toMatch(/takes 4 moves/);
    expect(cubePlanLength({ moves: ['F', 'U2'], metric: 'qtm' })).toBe(3);
  });

  it('rejects a plan that leaves the cube unsolved, is too long, or names no move', () => {
    expect(verifyCube(instance, { moves: ['F', 'U2'] }, 3)).toMatchObject({
      ok: false,
      reason: 'the moves do not solve the cube',
    });
    expect(verifyCube(instance, { moves: ['F', 'U2', "R'"] }, 2)).toMatchObject({ ok: false });
    expect(reasonOf(verifyCube(instance, { moves: ['F', 'M', "R'"] }, 3))).toMatch(/'M'/);
  });

  it('accepts any whole-cube orientation as solved on the 2x2', () => {
    const pocket = parseCubeInstance({ size: 2, scramble: 'D' });
    expect(verifyCube(pocket, { moves: ["U'"] }, 1).ok).toBe(true);
    expect(verifyCube(pocket, { moves: ["D'"] }, 1).ok).toBe(true);
  });
});

describe(renderCube.name, () => {
  it('draws the start net and a frame per move, the last one solved', () => {
    const instance = parseCubeInstance({ size: 3, scramble: "R U2 F'" });
    const r = renderCube(instance, { moves: ['F', 'U2', "R'"] });
    expect(r.start.U).toHaveLength(3);
    expect(r.frames.map((f) => f.move)).toEqual(['F', 'U2', "R'"]);
    expect(
      r.frames
        .at(-1)!
        .net.F.flat()
        .every((c) => c === 'F'),
    ).toBe(true);
  });
});
