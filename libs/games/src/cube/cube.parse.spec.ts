import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { FaceletGeometry } from './cube.facelets.js';
import { applyMoveToFacelets, CubeState, faceletsSolved, parseMove, solvedFacelets } from './cube.model.js';
import { parseCubeInstance, parseCubePlan } from './cube.parse.js';

const SOLVED3 = solvedFacelets(3);

function errorOf(input: unknown): InputError {
  try {
    parseCubeInstance(input);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

/** Facelets with the stickers at `indices` rotated one place (a twist or flip of one cubie). */
function rotateStickers(facelets: string, indices: number[]): string {
  const out = facelets.split('');
  indices.forEach((i, k) => (out[indices[(k + 1) % indices.length]!] = facelets[i]!));
  return out.join('');
}

function swap(facelets: string, pairs: [number, number][]): string {
  const out = facelets.split('');
  for (const [a, b] of pairs) [out[a], out[b]] = [out[b]!, out[a]!];
  return out.join('');
}

const g3 = FaceletGeometry.of(3);
const sticker = (cubie: string, face: string): number =>
  g3.faceletOf(cubie.split('') as never, face as never);

function expectFaceletError(input: unknown, reason: RegExp): void {
  const err = errorOf(input);
  expect(err.field).toBe('facelets');
  expect(err.reason).toMatch(reason);
}

describe(parseCubeInstance.name, () => {
  it('applies a scramble to the solved cube, in the half-turn metric unless told', () => {
    const inst = parseCubeInstance({ size: 3, scramble: "R U2  F'" });
    const expected = ['R', 'U2', "F'"].reduce((f, m) => applyMoveToFacelets(3, f, parseMove(m)!), SOLVED3);
    expect(inst).toMatchObject({ size: 3, metric: 'htm', facelets: expected, scramble: ['R', 'U2', "F'"] });
    expect(parseCubeInstance('{"size":3,"scramble":"R","metric":"qtm"}').metric).toBe('qtm');
  });

  it('reads facelets in any six letters, the centres naming the faces', () => {
    const state = CubeState.solved(3).applyAll(['R', 'U', "F'"].map((m) => parseMove(m)!));
    const palette: Record<string, string> = { U: 'w', R: 'r', F: 'g', D: 'y', L: 'o', B: 'b' };
    const coloured = Array.from(state.toFacelets(), (c) => palette[c]!).join('');
    expect(parseCubeInstance({ size: 3, facelets: coloured }).facelets).toBe(state.toFacelets());
  });

  it('treats every whole-cube orientation of a solved 2x2 as solved, and stores DBL at home', () => {
    // A solved 2x2 with the colour scheme of a cube turned over: U shows what D would.
    const turned = 'DDDD' + 'LLLL' + 'FFFF' + 'UUUU' + 'RRRR' + 'BBBB';
    const parsed = parseCubeInstance({ size: 2, facelets: turned });
    expect(faceletsSolved(2, parsed.facelets)).toBe(true);
    const scrambled = parseCubeInstance({ size: 2, scramble: "D L' B2 U" });
    const state = CubeState.fromFacelets(2, scrambled.facelets);
    expect(state.cp[6]).toBe(6);
    expect(state.co[6]).toBe(0);
  });

  it.each([
    [{ size: 4, scramble: 'R' }, 'size', /2 or 3/],
    [{ size: 3, scramble: 'R', metric: 'stm' }, 'metric', /htm.*qtm/],
    [{ size: 3, scramble: 'R', metirc: 'qtm' }, 'metirc', /^unknown field$/],
    [{ size: 3, scramble: 'R', extra: 1 }, 'extra', /^unknown field$/],
    [{ size: 3, scramble: 'R U X2' }, 'scramble', /unknown move 'X2' \(move 3\)/],
    [{ size: 3, scramble: 7 }, 'scramble', /must be a string/],
    [{ size: 3, scramble: 'R', facelets: SOLVED3 }, 'scramble', /not both/],
    [{ size: 3 }, 'scramble', /missing/],
    [{ size: 3, facelets: SOLVED3.slice(1) }, 'facelets', /expected 54 letters for size 3, got 53/],
    ['not json', 'input', /JSON object/],
    [[1, 2], 'input', /JSON object/],
  ])('names the field of bad input %j', (input, field, reason) => {
    const err = errorOf(input);
    expect(err.field).toBe(field);
    expect(err.reason).toMatch(reason);
  });

  it('counts colours before anything else', () => {
    const tooManyU = 'U' + SOLVED3.slice(1, 9) + 'U' + SOLVED3.slice(10);
    expect(errorOf({ size: 3, facelets: tooManyU })).toMatchObject({
      field: 'facelets',
      reason: 'colour U appears 10 times, expected 9',
    });
    expect(errorOf({ size: 3, facelets: 'X' + SOLVED3.slice(1) }).reason).toMatch(
      /expected 6 colours, found 7/,
    );
  });

  it('rejects a single twisted corner with the sum of twists', () => {
    const urf = ['U', 'R', 'F'].map((f) => sticker('URF', f));
    const twisted = rotateStickers(SOLVED3, urf);
    expectFaceletError(
      { size: 3, facelets: twisted },
      /corner twist is impossible \(sum of twists is [12] mod 3\)/,
    );
    const pocket = FaceletGeometry.of(2);
    const twisted2 = rotateStickers(
      solvedFacelets(2),
      ['U', 'R', 'F'].map((f) => pocket.faceletOf(['U', 'R', 'F'], f as never)),
    );
    expect(errorOf({ size: 2, facelets: twisted2 }).reason).toMatch(/corner twist is impossible/);
  });

  it('rejects a single flipped edge as edge parity', () => {
    const flipped = swap(SOLVED3, [[sticker('UF', 'U'), sticker('UF', 'F')]]);
    expectFaceletError({ size: 3, facelets: flipped }, /^edge parity/);
  });

  it('rejects two swapped edges as permutation parity', () => {
    const swapped = swap(SOLVED3, [
      [sticker('UF', 'U'), sticker('UR', 'U')],
      [sticker('UF', 'F'), sticker('UR', 'R')],
    ]);
    expectFaceletError({ size: 3, facelets: swapped }, /^permutation parity/);
  });

  it('rejects a corner whose colours no corner has', () => {
    // Swapping two stickers of different corners keeps the counts but makes a U-and-D corner.
    const bad = swap(SOLVED3, [[sticker('URF', 'R'), sticker('DFR', 'D')]]);
    expectFaceletError({ size: 3, facelets: bad }, /corner at URF has colours/);
  });

  it('rejects two centres of one colour', () => {
    const bad = swap(SOLVED3, [[g3.centreOf('U'), sticker('FR', 'F')]]);
    const err = errorOf({ size: 3, facelets: bad });
    expect(err.field).toBe('facelets');
    expect(err.reason).toMatch(/centres U and F have the same colour F|colour/);
  });
});

describe(parseCubePlan.name, () => {
  const qtm = parseCubeInstance({ size: 3, scramble: 'R U2', metric: 'qtm' });

  it("reads Singmaster moves as a string, a list or a solution, counted in the instance's metric", () => {
    const expected = { moves: ['U2', "R'"], metric: 'qtm' };
    expect(parseCubePlan("U2 R'", qtm)).toEqual(expected);
    expect(parseCubePlan(['U2', "R'"], qtm)).toEqual(expected);
    expect(parseCubePlan({ moves: ['U2', "R'"], metric: 'qtm' }, qtm)).toEqual(expected);
    expect(parseCubePlan({ moves: "U2 R'" }, qtm)).toEqual(expected);
  });

  it('names the field: an unknown move, a solution in another metric', () => {
    expect(() => parseCubePlan("U2 X R'", qtm)).toThrow(
      /^plan: unknown move 'X' \(move 2\); moves are U R F D L B/,
    );
    expect(() => parseCubePlan({ moves: ['U2', "R'"], metric: 'htm' }, qtm)).toThrow(
      'plan.metric: is "htm", but the cube is solved in qtm',
    );
  });
});
