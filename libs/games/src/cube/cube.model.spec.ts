import { describe, expect, it } from 'vitest';

import { generateScramble } from './cube.generate.js';
import {
  applyMoveToFacelets,
  CubeState,
  type CubeSize,
  faceletsSolved,
  inverseMove,
  type Move,
  MOVE_NAMES,
  parseMove,
  permutationParity,
  solvedFacelets,
} from './cube.model.js';

const moves = (text: string): Move[] => text.split(' ').map((t) => parseMove(t)!);
const ALL: Move[] = MOVE_NAMES.map((n) => parseMove(n)!);
const SIZES: CubeSize[] = [2, 3];

function repeat(state: CubeState, seq: Move[], times: number): CubeState {
  let s = state;
  for (let i = 0; i < times; i++) s = s.applyAll(seq);
  return s;
}

function scrambled(size: CubeSize, n: number, seed: number): CubeState {
  return CubeState.solved(size).applyAll(generateScramble(size, n, seed).map((t) => parseMove(t)!));
}

describe(CubeState.name, () => {
  it.each(SIZES)(
    'size %i: every move applied four times is the identity, and its inverse undoes it',
    (size) => {
      const start = scrambled(size, 20, 1);
      for (const m of ALL) {
        expect(repeat(start, [m], 4).equals(start)).toBe(true);
        expect(repeat(start, [m], 1).equals(start)).toBe(false);
        expect(start.apply(m).apply(inverseMove(m)).equals(start)).toBe(true);
      }
    },
  );

  it("X2 is X twice and X' is X three times", () => {
    const start = scrambled(3, 15, 2);
    for (const face of ['U', 'R', 'F', 'D', 'L', 'B'] as const) {
      expect(start.apply({ face, turns: 2 }).equals(repeat(start, [{ face, turns: 1 }], 2))).toBe(true);
      expect(start.apply({ face, turns: 3 }).equals(repeat(start, [{ face, turns: 1 }], 3))).toBe(true);
    }
  });

  it.each(SIZES)("size %i: (R U R' U') has order 6", (size) => {
    const sexy = moves("R U R' U'");
    const solved = CubeState.solved(size);
    for (let k = 1; k < 6; k++) expect(repeat(solved, sexy, k).isSolved()).toBe(false);
    expect(repeat(solved, sexy, 6).isSolved()).toBe(true);
  });

  it('(R U) has order 105 on the 3x3', () => {
    const ru = moves('R U');
    const solved = CubeState.solved(3);
    for (const k of [15, 21, 35]) expect(repeat(solved, ru, k).isSolved()).toBe(false);
    expect(repeat(solved, ru, 105).isSolved()).toBe(true);
  });

  it('opposite faces commute and adjacent faces do not', () => {
    const start = scrambled(3, 12, 3);
    expect(start.applyAll(moves('U D2')).equals(start.applyAll(moves('D2 U')))).toBe(true);
    expect(start.applyAll(moves("R L'")).equals(start.applyAll(moves("L' R")))).toBe(true);
    expect(start.applyAll(moves('U R')).equals(start.applyAll(moves('R U')))).toBe(false);
  });

  it('keeps twist, flip and permutation parity invariants under every move', () => {
    let s = CubeState.solved(3);
    for (const name of generateScramble(3, 200, 4)) {
      s = s.apply(parseMove(name)!);
      expect(s.co.reduce((a, b) => a + b, 0) % 3).toBe(0);
      expect(s.eo.reduce((a, b) => a + b, 0) % 2).toBe(0);
      expect(permutationParity(s.cp)).toBe(permutationParity(s.ep));
    }
  });

  it.each(SIZES)('size %i: cubie moves agree with sticker moves, and facelets round-trip', (size) => {
    let state = CubeState.solved(size);
    let facelets = solvedFacelets(size);
    for (const name of generateScramble(size, 60, 5 + size)) {
      const m = parseMove(name)!;
      state = state.apply(m);
      facelets = applyMoveToFacelets(size, facelets, m);
      expect(state.toFacelets()).toBe(facelets);
      expect(CubeState.fromFacelets(size, facelets).equals(state)).toBe(true);
    }
  });

  it('U turns the front row of stickers to the left face, R the front right column to U', () => {
    const afterU = applyMoveToFacelets(3, solvedFacelets(3), parseMove('U')!);
    expect(afterU.slice(36, 39)).toBe('FFF');
    expect(afterU.slice(18, 21)).toBe('RRR');
    const afterR = applyMoveToFacelets(3, solvedFacelets(3), parseMove('R')!);
    expect([2, 5, 8].map((i) => afterR[i]).join('')).toBe('FFF');
  });

  it('the six half turns U2 D2 F2 B2 R2 L2 make the checkerboard', () => {
    const f = moves('U2 D2 F2 B2 R2 L2').reduce(
      (acc, m) => applyMoveToFacelets(3, acc, m),
      solvedFacelets(3),
    );
    expect(faceletsSolved(3, f)).toBe(false);
    for (let face = 0; face < 6; face++) {
      const s = f.slice(face * 9, face * 9 + 9);
      expect(s[4]).toBe(s[0]);
      expect(s[1]).not.toBe(s[0]);
      expect(new Set(s).size).toBe(2);
    }
  });
});
