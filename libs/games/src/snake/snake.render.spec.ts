import { describe, expect, it } from 'vitest';

import type { SnakeInstance } from './snake.model.js';
import { renderSnake } from './snake.render.js';

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
