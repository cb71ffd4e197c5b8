import { describe, expect, it } from 'vitest';

import type { Verdict } from '../game-definition.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { verifyHexahop } from './hexahop.verify.js';

const sut = verifyHexahop;
const reasonOf = (verdict: Verdict): string => (verdict.ok ? 'accepted' : verdict.reason);
const instance = parseHexahopInstance({ map: ['ogggo', '.....', 'g....'], start: [0, 0] });
const line = parseHexahopInstance({ map: ['oggo'], start: [0, 0] });

describe(verifyHexahop.name, () => {
  it('accepts a winning plan with its score, costing its moves', () => {
    expect(sut(line, { moves: ['SE', 'SE', 'SE'], score: 3 }, 3)).toEqual({ ok: true, cost: 3 });
  });

  it('rejects a plan longer than the horizon', () => {
    expect(sut(line, { moves: ['SE', 'SE', 'SE'], score: 3 }, 2).ok).toBe(false);
  });

  it('rejects a refused move, a death and an unfinished level', () => {
    expect(reasonOf(sut(line, { moves: ['N'], score: 1 }, 5))).toMatch(/refused/);
    expect(reasonOf(sut(line, { moves: ['SE', 'SE'], score: 2 }, 5))).toMatch(/not won/);
    const trampoline = parseHexahopInstance({ map: ['ogT.', '...g'], start: [0, 0] });
    expect(reasonOf(sut(trampoline, { moves: ['SE', 'SE'], score: 2 }, 5))).toMatch(/death/);
  });

  it('rejects moves after the win and a wrong score', () => {
    expect(reasonOf(sut(line, { moves: ['SE', 'SE', 'SE', 'NW'], score: 4 }, 5))).toMatch(/after/);
    expect(reasonOf(sut(line, { moves: ['SE', 'SE', 'SE'], score: 30 }, 5))).toMatch(/score/);
  });

  it('rejects names that are not moves', () => {
    expect(sut(instance, { moves: ['UP' as never], score: 1 }, 5).ok).toBe(false);
  });
});
