import { describe, expect, it } from 'vitest';

import { formatSinglesId, formatTowersId, InputError } from '@satfarm/games';

import { detectGame } from './batch-game-detection.js';

describe(detectGame.name, () => {
  it('reads the game from the file name: .cnf, .dimacs, .<game> and .<game>.json', () => {
    expect(detectGame('a.cnf', 'anything')).toBe('cnf');
    expect(detectGame('dir/b.DIMACS', 'anything')).toBe('cnf');
    expect(detectGame('c.towers', '3:...')).toBe('towers');
    expect(detectGame('d.hexahop.json', { level: 'Orbital' })).toBe('hexahop');
  });

  it('reads it from the content when the name says nothing', () => {
    expect(detectGame('f.txt', 'c a comment\np cnf 2 1\n1 2 0\n')).toBe('cnf');
    expect(detectGame('f.json', { dimacs: 'p cnf 1 1\n1 0\n' })).toBe('cnf');
    expect(detectGame('f.txt', '3:///////2//2/2/')).toBe('towers');
    expect(detectGame('f.txt', '3x3:323232211')).toBe('singles');
    expect(detectGame('f.txt', '4:1234123412341234')).toBe('singles');
    expect(detectGame('f.json', { size: 2, scramble: "R U'" })).toBe('cube');
    expect(detectGame('f.json', { width: 3, height: 3, apples: [[2, 2]] })).toBe('snake');
    expect(detectGame('f.json', { map: ['og'], start: [0, 0] })).toBe('hexahop');
    expect(detectGame('f.json', { grid: [[1, 2]] })).toBe('singles');
    expect(detectGame('f.json', { board: ['X.O', '...', '...'] })).toBe('tictactoe');
    expect(detectGame('f.json', { n: 3, top: [1, 0, 0] })).toBe('towers');
  });

  it('reads the IDs the games write as theirs', () => {
    const towers = {
      n: 3,
      top: [1, 0, 0],
      bottom: [0, 0, 0],
      left: [0, 2, 0],
      right: [0, 0, 0],
      givens: [[1, 1, 3]],
    };
    expect(detectGame('p.txt', formatTowersId(towers as Parameters<typeof formatTowersId>[0]))).toBe(
      'towers',
    );
    const singles = {
      width: 3,
      height: 2,
      grid: [
        [1, 2, 3],
        [3, 1, 2],
      ],
    };
    expect(detectGame('p.txt', formatSinglesId(singles))).toBe('singles');
  });

  it('refuses content that fits no game, or several, naming game and --game', () => {
    const none = (): unknown => detectGame('x.txt', 'hello');
    expect(none).toThrow(InputError);
    expect(none).toThrow(/^game: cannot tell .*pass --game/);
    expect(() => detectGame('x.json', { board: ['X'], grid: [[1]] })).toThrow(
      /game: the content fits singles and tictactoe; pass --game/,
    );
    expect(() => detectGame('x.json', [1, 2])).toThrow(/pass --game/);
  });
});
