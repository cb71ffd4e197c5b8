import { describe, expect, it } from 'vitest';

import { type Cell, SnakeGrid, type SnakeInstance, SnakeSimulator } from './snake.model.js';

function snake(overrides: Partial<SnakeInstance> & Pick<SnakeInstance, 'body'>): SnakeSimulator {
  return new SnakeSimulator({
    width: 3,
    height: 3,
    length: overrides.body.length,
    apples: [],
    order: 'any',
    ...overrides,
  });
}

const at = (sut: SnakeSimulator, cell: Cell): number => sut.grid.index(cell);
const cells = (sut: SnakeSimulator, list: number[]): Cell[] => list.map((c) => sut.grid.cell(c));

describe(SnakeGrid.name, () => {
  it('gives 4-neighbours inside the grid only, without wrapping around', () => {
    const sut = new SnakeGrid(3, 2);
    expect(sut.neighbours(sut.index([0, 0])).map((c) => sut.cell(c))).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(sut.neighbours(sut.index([2, 1])).map((c) => sut.cell(c))).toEqual([
      [1, 1],
      [2, 0],
    ]);
  });
});

describe(SnakeSimulator.name, () => {
  it('moves the head to a neighbour and drags the body after it', () => {
    const sut = snake({
      body: [
        [1, 1],
        [1, 0],
        [0, 0],
      ],
    });
    expect(sut.move(at(sut, [2, 1]))).toEqual({ ok: true, ate: undefined });
    expect(cells(sut, sut.body())).toEqual([
      [2, 1],
      [1, 1],
      [1, 0],
    ]);
  });

  it('refuses a jump, a diagonal step and standing still', () => {
    const sut = snake({ body: [[0, 1]] });
    for (const target of [
      [2, 1],
      [1, 2],
      [0, 1],
    ] as Cell[]) {
      expect(sut.move(at(sut, target))).toEqual({ ok: false, reason: 'not a move to a 4-neighbour' });
    }
    expect(sut.steps).toBe(0);
  });

  it('cannot leave the grid: a head in a corner has two moves', () => {
    const sut = snake({ body: [[0, 0]] });
    expect(cells(sut, sut.legalMoves())).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('lets the head enter the cell the tail leaves in the same step', () => {
    const sut = snake({
      body: [
        [1, 1],
        [1, 0],
        [0, 0],
        [0, 1],
      ],
    });
    expect(sut.move(at(sut, [0, 1])).ok).toBe(true);
  });

  it('forbids biting any other body cell', () => {
    const sut = snake({
      body: [
        [1, 1],
        [1, 0],
        [0, 0],
        [0, 1],
        [0, 2],
      ],
    });
    expect(sut.move(at(sut, [0, 1]))).toEqual({ ok: false, reason: 'the head bites the body' });
    expect(sut.move(at(sut, [1, 0])).ok).toBe(false);
  });

  it('grows by one in the step an apple is eaten: the tail stays put', () => {
    const ring = {
      width: 2,
      height: 2,
      body: [
        [0, 1],
        [0, 0],
        [1, 0],
      ] as Cell[],
    };
    const fed = snake({ ...ring, apples: [[1, 1]] });
    expect(fed.move(at(fed, [1, 1]))).toEqual({ ok: true, ate: 0 });
    expect(fed.length).toBe(4);
    expect(cells(fed, fed.body())).toEqual([
      [1, 1],
      [0, 1],
      [0, 0],
      [1, 0],
    ]);
    const hungry = snake(ring);
    hungry.move(at(hungry, [1, 1]));
    expect(hungry.body()).toHaveLength(3);
  });

  it('grows out from a body shorter than its length', () => {
    const sut = snake({ body: [[0, 0]], length: 3 });
    sut.move(at(sut, [1, 0]));
    sut.move(at(sut, [2, 0]));
    sut.move(at(sut, [2, 1]));
    expect(cells(sut, sut.body())).toEqual([
      [2, 1],
      [2, 0],
      [1, 0],
    ]);
    expect(sut.move(at(sut, [1, 1])).ok).toBe(true);
  });

  it('shows only the next apple of a given order, and only that one is eaten', () => {
    const sut = snake({
      body: [[0, 0]],
      apples: [
        [2, 0],
        [1, 0],
      ],
      order: 'given',
    });
    expect(sut.presentApples()).toEqual([0]);
    expect(sut.move(at(sut, [1, 0]))).toEqual({ ok: true, ate: undefined });
    sut.move(at(sut, [2, 0]));
    expect(sut.presentApples()).toEqual([1]);
    expect(sut.length).toBe(2);
    expect(sut.move(at(sut, [1, 0]))).toEqual({ ok: false, reason: 'the head bites the body' });
  });

  it('is done when every apple is eaten, in any order', () => {
    const sut = snake({
      body: [[1, 1]],
      apples: [
        [2, 1],
        [1, 0],
      ],
    });
    sut.move(at(sut, [1, 0]));
    expect(sut.isDone()).toBe(false);
    sut.move(at(sut, [2, 0]));
    sut.move(at(sut, [2, 1]));
    expect(sut.isDone()).toBe(true);
    expect(sut.applesEaten).toBe(2);
  });

  it('is done after `survive` steps for the survive variant', () => {
    const sut = snake({ body: [[0, 0]], survive: 1 });
    expect(sut.isDone()).toBe(false);
    sut.move(at(sut, [0, 1]));
    expect(sut.isDone()).toBe(true);
  });

  it('clones into an independent state with the same key', () => {
    const sut = snake({ body: [[0, 0]], apples: [[2, 2]] });
    const copy = sut.clone();
    expect(copy.key()).toBe(sut.key());
    copy.move(at(copy, [1, 0]));
    expect(sut.head).toBe(at(sut, [0, 0]));
    expect(copy.key()).not.toBe(sut.key());
  });
});
