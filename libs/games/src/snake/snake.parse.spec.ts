import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { parseSnakeInstance, parseSnakePlan } from './snake.parse.js';

const valid = {
  width: 10,
  height: 10,
  length: 4,
  body: [
    [2, 2],
    [2, 3],
    [3, 3],
  ],
  apples: [
    [5, 5],
    [0, 9],
    [9, 0],
  ],
  order: 'any',
};

function errorOf(input: unknown): InputError {
  try {
    parseSnakeInstance(input);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe(parseSnakeInstance.name, () => {
  it('reads the format of docs/cli.md', () => {
    expect(parseSnakeInstance(valid)).toEqual(valid);
  });

  it('reads JSON text as well as a JSON value', () => {
    expect(parseSnakeInstance(JSON.stringify(valid))).toEqual(valid);
  });

  it('defaults: a head alone at [0,0] (or at start), length of the body, any order, no apples', () => {
    expect(parseSnakeInstance({ width: 3, height: 2 })).toEqual({
      width: 3,
      height: 2,
      length: 1,
      body: [[0, 0]],
      apples: [],
      order: 'any',
    });
    expect(parseSnakeInstance({ width: 3, height: 2, start: [2, 1], length: 3 })).toMatchObject({
      body: [[2, 1]],
      length: 3,
    });
  });

  it('reads the survive variant', () => {
    expect(parseSnakeInstance({ width: 3, height: 3, survive: 7 })).toMatchObject({ survive: 7, apples: [] });
    expect(parseSnakeInstance({ width: 3, height: 3, survive: 100_000 })).toMatchObject({ survive: 100_000 });
  });

  it('takes a length up to the cells of the grid', () => {
    expect(parseSnakeInstance({ width: 3, height: 3, length: 9, apples: [[2, 2]] })).toMatchObject({
      length: 9,
    });
  });

  it.each([
    ['not an object', [1, 2], 'input', 'expected a JSON object'],
    ['bad JSON text', '{"width":', 'input', 'not valid JSON'],
    ['an unknown field', { ...valid, colour: 'green' }, 'colour', 'unknown field'],
    ['no width', { height: 3 }, 'width', 'required'],
    ['a fractional height', { ...valid, height: 2.5 }, 'height', 'expected an integer'],
    ['a zero width', { ...valid, width: 0 }, 'width', 'must be at least 1'],
    [
      'an apple off the grid',
      {
        ...valid,
        apples: [
          [1, 1],
          [2, 2],
          [10, 3],
        ],
      },
      'apples[2]',
      'outside the 10x10 grid',
    ],
    [
      'an apple that is no cell',
      { ...valid, apples: [[1, 'a']] },
      'apples[0]',
      'expected [x, y] with integer coordinates',
    ],
    [
      'duplicate apples',
      {
        ...valid,
        apples: [
          [1, 1],
          [4, 4],
          [1, 1],
        ],
      },
      'apples[2]',
      'same cell as apples[0]',
    ],
    [
      'an apple on the body',
      {
        ...valid,
        apples: [
          [7, 7],
          [3, 3],
        ],
      },
      'apples[1]',
      "on the snake's body",
    ],
    ['an apple on the head', { ...valid, apples: [[2, 2]] }, 'apples[0]', "on the snake's body"],
    [
      'a body with a gap',
      {
        ...valid,
        body: [
          [2, 2],
          [2, 3],
          [4, 3],
        ],
      },
      'body',
      'not a connected path: body[2] is not next to body[1]',
    ],
    [
      'a body crossing itself',
      {
        ...valid,
        body: [
          [2, 2],
          [2, 3],
          [2, 2],
        ],
      },
      'body[2]',
      'same cell as body[0]',
    ],
    ['an empty body', { ...valid, body: [] }, 'body', 'needs at least the head'],
    [
      'a length shorter than the body',
      { ...valid, length: 2 },
      'length',
      '2 is shorter than the body (3 cells)',
    ],
    ['both start and body', { ...valid, start: [0, 0] }, 'start', 'give either start or body, not both'],
    ['an unknown order', { ...valid, order: 'random' }, 'order', 'expected "any" or "given", got "random"'],
    ['survive with apples', { ...valid, survive: 5 }, 'survive', 'cannot be combined with apples'],
    ['a negative survive', { width: 3, height: 3, survive: -1 }, 'survive', 'must be at least 0'],
    [
      'a survive above the largest horizon',
      { width: 3, height: 3, survive: 1e12 },
      'survive',
      'must be at most 100000, the largest horizon; got 1000000000000',
    ],
    [
      'a length the grid cannot hold',
      { width: 3, height: 3, length: 1e12, apples: [[2, 2]] },
      'length',
      'must be at most 9, the cells of the 3x3 grid; got 1000000000000',
    ],
  ])('names the field of %s', (_, input, field, reason) => {
    expect(errorOf(input)).toMatchObject({ field, reason });
  });

  it('allows a later apple of a given order under the body (it appears only when its turn comes)', () => {
    const instance = parseSnakeInstance({
      ...valid,
      order: 'given',
      apples: [
        [7, 7],
        [3, 3],
      ],
    });
    expect(instance.apples).toEqual([
      [7, 7],
      [3, 3],
    ]);
    expect(
      errorOf({
        ...valid,
        order: 'given',
        apples: [
          [3, 3],
          [7, 7],
        ],
      }),
    ).toMatchObject({ field: 'apples[0]' });
  });
});

describe(parseSnakePlan.name, () => {
  const instance = parseSnakeInstance(valid);
  const path = [
    [2, 2],
    [2, 1],
    [3, 1],
  ];

  it("reads the head's cells as a solution or a list", () => {
    expect(parseSnakePlan({ path }, instance)).toEqual({ path });
    expect(parseSnakePlan(path, instance)).toEqual({ path });
  });

  it('names the field and the cell at fault', () => {
    const error = (input: unknown): InputError => {
      try {
        parseSnakePlan(input, instance);
      } catch (err) {
        if (err instanceof InputError) return err;
        throw err;
      }
      throw new Error('expected an InputError');
    };
    expect(
      error({
        path: [
          [2, 2],
          [2, 10],
        ],
      }),
    ).toMatchObject({ field: 'plan.path[1]', reason: 'outside the 10x10 grid' });
    expect(error([[2, 2], 'N'])).toMatchObject({
      field: 'plan[1]',
      reason: 'expected [x, y] with integer coordinates',
    });
    expect(error({ moves: [] })).toMatchObject({ field: 'plan.path', reason: 'missing' });
    expect(error([]).field).toBe('plan');
    expect(error([]).reason).toMatch(/head's cells/);
  });
});
