import { describe, expect, it } from 'vitest';

import { storedPuzzles } from '../../../../test/fixtures/puzzles/stored-puzzles.js';
import { InputError } from '../input-error.js';
import { formatSinglesId, parseSinglesInstance } from './singles.parse.js';

function errorOf(input: unknown): InputError {
  try {
    parseSinglesInstance(input);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error(`no error for ${JSON.stringify(input)}`);
}

describe(parseSinglesInstance.name, () => {
  it('reads every stored ID printed by sgt-singles and writes it back unchanged', () => {
    const puzzles = storedPuzzles('singles');
    expect(puzzles.length).toBeGreaterThan(50);
    for (const { id, params } of puzzles) {
      const instance = parseSinglesInstance(id);
      const [width, height] = params.split('d')[0]!.split('x').map(Number);
      expect([instance.width, instance.height]).toEqual([width, height]);
      expect(formatSinglesId(instance)).toBe(id);
    }
  });

  it('reads cells row by row, letters a.. as 10..', () => {
    expect(parseSinglesInstance('4x3:344313243423').grid).toEqual([
      [3, 4, 4, 3],
      [1, 3, 2, 4],
      [3, 4, 2, 3],
    ]);
    const twelve = parseSinglesInstance(
      storedPuzzles('singles').find((p) => p.params.startsWith('12x12'))!.id,
    );
    expect(Math.max(...twelve.grid.flat())).toBe(12);
  });

  it('accepts a square size alone and a difficulty suffix, as sgt-singles does', () => {
    expect(parseSinglesInstance('3:111321112')).toEqual(parseSinglesInstance('3x3dk:111321112'));
  });

  it('reads the JSON form, as a value or as text', () => {
    expect(
      parseSinglesInstance({
        grid: [
          [1, 2],
          [2, 1],
          [40, 1],
        ],
      }),
    ).toEqual({
      width: 2,
      height: 3,
      grid: [
        [1, 2],
        [2, 1],
        [40, 1],
      ],
    });
    expect(parseSinglesInstance('{"grid": [[1]]}').width).toBe(1);
  });

  it('takes the width and height that generate singles --json writes, when they match the grid', () => {
    const grid = [
      [1, 2, 3],
      [3, 1, 2],
    ];
    expect(parseSinglesInstance({ width: 3, height: 2, grid })).toEqual({ width: 3, height: 2, grid });
    expect(parseSinglesInstance({ width: 3, grid })).toEqual({ width: 3, height: 2, grid });
  });

  it.each([
    ['3x3:11132111', 'id', /cell count 8 does not match 3\*3=9/],
    ['3x3:111321110', 'id', /cell 9 '0' is not a number/],
    ['3x3:11132111!', 'id', /cell 9 '!'/],
    ['3x3:999999999', 'id', /'9' is 9, more than max\(3, 3\)=3/],
    ['3x3:11132111a', 'id', /'a' is 10, more than/],
    ['36x2:1', 'id', /width 36 is not in 1\.\.35/],
    ['3x0:', 'id', /height 0/],
    ['singles', 'id', /expected 'WxH:cells'/],
    ['{"grid": [[1]', 'input', /not valid JSON/],
    [[1, 2], 'input', /expected a Tatham game ID or a JSON object/],
    [{}, 'grid', /required/],
    [{ grid: [] }, 'grid', /non-empty/],
    [{ grid: [[1], 2] }, 'grid[1]', /array of numbers/],
    [{ grid: [[]] }, 'grid[0]', /non-empty/],
    [{ grid: [[1, 2], [1]] }, 'grid[1]', /1 cells, expected 2/],
    [{ grid: [[1, 0]] }, 'grid[0][1]', /positive integer/],
    [{ grid: [[1, 'a']] }, 'grid[0][1]', /positive integer/],
    [{ grid: [[1]], size: 1 }, 'size', /unknown field/],
    [{ width: 2, height: 1, grid: [[1, 2, 3]] }, 'width', /^is 2, but the grid's is 3$/],
    [{ width: 3, height: 3, grid: [[1, 2, 3]] }, 'height', /^is 3, but the grid's is 1$/],
    [{ width: '3', grid: [[1, 2, 3]] }, 'width', /^is "3", but the grid's is 3$/],
  ])('rejects %j naming the field %s', (input, field, reason) => {
    const err = errorOf(input);
    expect(err.field).toBe(field);
    expect(err.reason).toMatch(reason);
  });
});

describe(formatSinglesId.name, () => {
  it('refuses numbers a game ID cannot hold', () => {
    expect(() => formatSinglesId({ width: 2, height: 1, grid: [[1, 3]] })).toThrow(RangeError);
  });
});
