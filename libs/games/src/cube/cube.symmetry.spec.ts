import { describe, expect, it } from 'vitest';

import { generateScramble } from './cube.generate.js';
import { CubeState, parseMove } from './cube.model.js';
import { CubeSymmetry } from './cube.symmetry.js';

describe(CubeSymmetry.name, () => {
  it('has 48 distinct members, half of them reflections, the identity first', () => {
    const all = CubeSymmetry.list();
    expect(all).toHaveLength(48);
    expect(all.filter((s) => s.reflection)).toHaveLength(24);
    const state = CubeState.solved(3).applyAll(generateScramble(3, 20, 5).map((m) => parseMove(m)!));
    expect(all[0]!.state(state).equals(state)).toBe(true);
    expect(new Set(all.map((s) => s.facelets(state.toFacelets()))).size).toBe(48);
  });

  it('gives at cubie level the position its sticker map gives', () => {
    for (const sym of CubeSymmetry.list()) {
      for (let seed = 0; seed < 10; seed++) {
        const state = CubeState.solved(3).applyAll(
          generateScramble(3, 25, 40 + seed).map((m) => parseMove(m)!),
        );
        const viaStickers = CubeState.fromFacelets(3, sym.facelets(state.toFacelets()));
        expect(sym.state(state).equals(viaStickers)).toBe(true);
      }
    }
  });

  it('sends a scramble to the scramble of the image moves, so distances are kept', () => {
    for (const sym of CubeSymmetry.list()) {
      expect(sym.state(CubeState.solved(3)).isSolved()).toBe(true);
      for (let seed = 0; seed < 4; seed++) {
        const moves = generateScramble(3, 15, 100 + seed).map((m) => parseMove(m)!);
        const image = CubeState.solved(3).applyAll(moves.map((m) => sym.move(m)));
        expect(sym.state(CubeState.solved(3).applyAll(moves)).equals(image)).toBe(true);
      }
    }
  });
});
