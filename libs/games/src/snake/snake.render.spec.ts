import { describe, expect, it } from 'vitest';

import type { SnakeInstance } from './snake.model.js';
import { renderSnake, snakeText } from './snake.render.js';

const instance: SnakeInstance = {
  width: 3,
  height: 2,
  length: 2,
  body: [
    [1, 0],
    [0, 0],
  ],
  apples: [
    [2, 0],
    [2, 1],
  ],
  order: 'given',
};

describe(renderSnake.name, () => {
  it('draws one frame per step with the body growing and the next apple appearing', () => {
    const sut = renderSnake(instance, {
      path: [
        [1, 0],
        [2, 0],
        [2, 1],
      ],
    });
    expect(sut.width).toBe(3);
    expect(sut.frames).toEqual([
      {
        t: 0,
        head: [1, 0],
        body: [
          [1, 0],
          [0, 0],
        ],
        apples: [[2, 0]],
        length: 2,
      },
      {
        t: 1,
        head: [2, 0],
        body: [
          [2, 0],
          [1, 0],
          [0, 0],
        ],
        apples: [[2, 1]],
        length: 3,
        ate: 0,
      },
      {
        t: 2,
        head: [2, 1],
        body: [
          [2, 1],
          [2, 0],
          [1, 0],
          [0, 0],
        ],
        apples: [],
        length: 4,
        ate: 1,
      },
    ]);
  });

  it('draws the start alone without a plan', () => {
    expect(renderSnake(instance, undefined).frames).toHaveLength(1);
  });
});

describe(snakeText.name, () => {
  it('draws the start board (y from the top) and lists the steps and what they ate', () => {
    const view = renderSnake(instance, {
      path: [
        [1, 0],
        [2, 0],
        [2, 1],
      ],
    });
    expect(snakeText(view)).toBe(
      // The apples come in the given order: only the first is on the board at the start.
      ['o H @', '. . .', 'steps (2): R D', '2 apples eaten; length 4 at the end'].join('\n'),
    );
  });

  it('lists the steps alone for a board too large to read as text', () => {
    const wide: SnakeInstance = {
      width: 41,
      height: 1,
      length: 1,
      body: [[0, 0]],
      apples: [[1, 0]],
      order: 'any',
    };
    const text = snakeText(
      renderSnake(wide, {
        path: [
          [0, 0],
          [1, 0],
        ],
      }),
    );
    expect(text).toBe(['steps (1): R', '1 apple eaten; length 2 at the end'].join('\n'));
  });
});
