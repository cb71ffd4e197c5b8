import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { gameById } from './game-registry.js';

const example = (name: string): unknown => {
  const text = readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');
  return name.endsWith('.json') ? (JSON.parse(text) as unknown) : text;
};

const summaryOf = (game: string, input: unknown): string => {
  const definition = gameById(game);
  return definition.summarize(definition.parse(input));
};

describe('GameDefinition.summarize', () => {
  it('names a cube by its size, metric and scramble', () => {
    expect(summaryOf('cube', { size: 2, scramble: "R U2 F'" })).toBe("2x2x2 htm: R U2 F'");
    expect(summaryOf('cube', { size: 3, scramble: 'R U', metric: 'qtm' })).toBe('3x3x3 qtm: R U');
  });

  it('tells two scrambles of one cube apart', () => {
    expect(summaryOf('cube', { size: 2, scramble: 'R U' })).not.toBe(
      summaryOf('cube', { size: 2, scramble: 'U R' }),
    );
  });

  it('names a Hex-a-Hop level by its number and name', () => {
    expect(summaryOf('hexahop', example('hexahop-hive.json'))).toMatch(/^#\d+ Hive$/);
  });

  it('names a snake board, a formula and the puzzles by their sizes', () => {
    expect(summaryOf('snake', { width: 6, height: 5, length: 2, apples: [[3, 3]] })).toBe(
      '6x5, length 2, 1 apple',
    );
    expect(summaryOf('cnf', 'p cnf 3 2\n1 2 0\n-3 0\n')).toBe('3 vars, 2 clauses');
    expect(summaryOf('towers', example('towers-5.txt'))).toMatch(/^5x5, \d+ given$/);
    expect(summaryOf('singles', example('singles-6x6.txt'))).toBe('6x6');
    expect(summaryOf('tictactoe', example('tictactoe.json'))).toMatch(/^\dx\d, \d in a row, [XO] to move$/);
  });
});
