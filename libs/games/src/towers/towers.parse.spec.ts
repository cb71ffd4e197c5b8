import { describe, expect, it } from 'vitest';

import { storedPuzzles } from '../../../../test/fixtures/puzzles/stored-puzzles.js';
import { InputError } from '../input-error.js';
import { formatTowersId, parseTowersInstance } from './towers.parse.js';

const CLUES_3 = '3:3/1/2/1/2/2/2/2/1/2/1/3';

function errorOf(input: unknown): InputError {
  try {
    parseTowersInstance(input);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error(`no error for ${JSON.stringify(input)}`);
}

describe(parseTowersInstance.name, () => {
  it('reads every stored ID printed by sgt-towers and writes it back unchanged', () => {
    const puzzles = storedPuzzles('towers');
    expect(puzzles.length).toBeGreaterThan(50);
    for (const { id, params } of puzzles) {
      const instance = parseTowersInstance(id);
      expect(instance.n).toBe(Number(params[0]));
      expect(formatTowersId(instance)).toBe(id);
    }
  });

  it('reads the clues top, bottom, left, right, each left to right or top to bottom', () => {
    const sut = parseTowersInstance(CLUES_3);
    expect(sut).toMatchObject({
      n: 3,
      top: [3, 1, 2],
      bottom: [1, 2, 2],
      left: [2, 2, 1],
      right: [2, 1, 3],
      givens: [],
    });
  });

  it('reads empty clues as 0, a difficulty suffix, and surrounding whitespace', () => {
    const sut = parseTowersInstance(' 4dh:///2//2//////2//3//\n');
    expect(sut.top).toEqual([0, 0, 0, 2]);
    expect(sut.bottom).toEqual([0, 2, 0, 0]);
    expect(sut.right).toEqual([0, 3, 0, 0]);
  });

  it('reads givens as runs: letters skip cells, digits are heights, _ separates adjacent digits', () => {
    expect(parseTowersInstance('5:////3/2//4///3//2//3//4///,v1b').givens).toEqual([[4, 2, 1]]);
    expect(parseTowersInstance(`${CLUES_3},1_2g`).givens).toEqual([
      [0, 0, 1],
      [0, 1, 2],
    ]);
    // sgt-towers itself accepts a stray _ at either end.
    expect(parseTowersInstance(`${CLUES_3},_a2g_`).givens).toEqual([[0, 1, 2]]);
  });

  it('reads the JSON form, with missing sides as no clues', () => {
    const sut = parseTowersInstance({ n: 3, top: [3, 0, 0], givens: [[1, 1, 2]] });
    expect(sut).toEqual({
      n: 3,
      top: [3, 0, 0],
      bottom: [0, 0, 0],
      left: [0, 0, 0],
      right: [0, 0, 0],
      givens: [[1, 1, 2]],
    });
    expect(parseTowersInstance('{"n": 2, "left": [2, 1]}').left).toEqual([2, 1]);
  });

  it.each([
    ['5:1/2/3', 'id', /clue count 3 does not match 4\*5=20/],
    ['hello', 'id', /expected 'N:clues/],
    ['0:', 'id', /grid size 0/],
    ['3:3/1/2/1/2/2/2/2/1/2/1/4', 'id', /clue 12 is 4, not in 1\.\.3/],
    ['3:3/1/2/1/2/2/2/2/1/2/1/x', 'id', /clue 12 'x' is not a number/],
    [`${CLUES_3},a2f`, 'id', /cover 8 cells, not 3\*3=9/],
    [`${CLUES_3},a2h`, 'id', /more than 3\*3=9/],
    [`${CLUES_3},a4g`, 'id', /given height 4 is not in 1\.\.3/],
    [`${CLUES_3},a!g`, 'id', /unexpected '!'/],
    ['{"n": 3', 'input', /not valid JSON/],
    [42, 'input', /expected a Tatham game ID or a JSON object/],
    [{}, 'n', /required/],
    [{ n: 2.5 }, 'n', /integer/],
    [{ n: 51 }, 'n', /1\.\.50/],
    [{ n: 3, size: 3 }, 'size', /unknown field/],
    [{ n: 3, top: 'abc' }, 'top', /array/],
    [{ n: 3, top: [1, 2] }, 'top', /2 clues, expected n=3/],
    [{ n: 3, bottom: [1, 2, 9] }, 'bottom[2]', /0\.\.3/],
    [{ n: 3, givens: {} }, 'givens', /array/],
    [{ n: 3, givens: [[0, 0]] }, 'givens[0]', /\[row, col, height\]/],
    [{ n: 3, givens: [[3, 0, 1]] }, 'givens[0]', /outside the 3x3 grid/],
    [{ n: 3, givens: [[0, 0, 4]] }, 'givens[0]', /height 4/],
    [
      {
        n: 3,
        givens: [
          [0, 0, 1],
          [0, 0, 2],
        ],
      },
      'givens[1]',
      /given twice/,
    ],
  ])('rejects %j naming the field %s', (input, field, reason) => {
    const err = errorOf(input);
    expect(err.field).toBe(field);
    expect(err.reason).toMatch(reason);
  });
});

describe(formatTowersId.name, () => {
  it('writes givens with runs longer than 26 and adjacent digits as sgt-towers does', () => {
    const instance = parseTowersInstance({
      n: 6,
      givens: [
        [0, 0, 1],
        [0, 1, 2],
        [5, 5, 3],
      ],
    });
    const id = formatTowersId(instance);
    expect(id.split(',')[1]).toBe('1_2zg3');
    expect(parseTowersInstance(id)).toEqual(instance);
  });
});
