import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { isPddlProblem, snakeInstanceFromPddl, type SnakePddlInstance } from './snake.pddl.js';

/**
 * A 3x2 grid: pos2-1 is not an object (a wall), pos2-0 is blocked off the snake (a wall); the
 * snake runs pos1-1, pos0-1; one apple on pos1-0, and one to spawn on pos0-0.
 *
 *   . a #
 *   s H #
 */
const SMALL = `; a hand-written problem
(define (problem small-3x2)
(:domain snake)
(:objects
    pos0-0 pos1-0 pos2-0
    pos0-1 pos1-1
)
(:init
    (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0)
    (ISADJACENT pos1-0 pos2-0) (ISADJACENT pos2-0 pos1-0)
    (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
    (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0)
    (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
    (headsnake pos1-1)
    (nextsnake pos1-1 pos0-1)
    (tailsnake pos0-1)
    (blocked pos1-1)
    (blocked pos0-1)
    (blocked pos2-0)
    (spawn pos0-0)
    (NEXTSPAWN pos0-0 dummypoint)
    (ispoint pos1-0)
)
(:goal (and
    (not (ispoint pos1-0))
    (not (ispoint pos0-0))
))
)
`;

function errorOf(text: string): InputError {
  try {
    snakeInstanceFromPddl(text);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

/** The line (from 1) of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  expect(at, needle).toBeGreaterThanOrEqual(0);
  return text.slice(0, at).split('\n').length;
}

/** SMALL with `from` replaced by `to` (which must occur). */
function small(from: string, to: string): string {
  expect(SMALL).toContain(from);
  return SMALL.replace(from, to);
}

describe(isPddlProblem.name, () => {
  it('is true of a text whose first form past comments is (define (problem, in any case', () => {
    expect(isPddlProblem(SMALL)).toBe(true);
    expect(isPddlProblem('(define (problem p) (:domain snake))')).toBe(true);
    expect(isPddlProblem('\n ;; one\n;two\n  ( DEFINE\n( Problem p)')).toBe(true);
  });

  it('is false of a domain, JSON, other text and non-strings', () => {
    expect(isPddlProblem('(define (domain snake))')).toBe(false);
    expect(isPddlProblem('(define (problems p))')).toBe(false);
    expect(isPddlProblem('{"width": 3}')).toBe(false);
    expect(isPddlProblem('; (define (problem p))')).toBe(false);
    expect(isPddlProblem({ width: 3 })).toBe(false);
    expect(isPddlProblem(undefined)).toBe(false);
  });
});

describe(snakeInstanceFromPddl.name, () => {
  it('reads cells, walls, the snake head first, the apples and the spawn chain', () => {
    expect(snakeInstanceFromPddl(SMALL)).toEqual({
      width: 3,
      height: 2,
      length: 2,
      body: [
        [1, 1],
        [0, 1],
      ],
      apples: [[1, 0]],
      order: 'any',
      walls: [
        [2, 0],
        [2, 1],
      ],
      spawn: [[0, 0]],
      tail: 'strict',
    });
  });

  it('leaves walls and spawn out when there are none; reads names and keywords in any case', () => {
    const text = `(define (problem open-2x2) (:DOMAIN Snake)
      (:requirements :strips)
      (:objects POS0-0 pos1-0 pos0-1 pos1-1)
      (:init
        (isadjacent pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0) (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
        (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0) (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
        (headsnake pos0-0) (nextsnake pos0-0 pos0-1) (tailsnake pos0-1) (blocked pos0-0) (blocked pos0-1)
        (spawn dummypoint) (ispoint pos1-1))
      (:goal (and (not (ispoint pos1-1)))))`;
    const instance = snakeInstanceFromPddl(text);
    expect(instance).toEqual({
      width: 2,
      height: 2,
      length: 2,
      body: [
        [0, 0],
        [0, 1],
      ],
      apples: [[1, 1]],
      order: 'any',
      tail: 'strict',
    });
    expect(Object.keys(instance)).not.toContain('walls');
    expect(Object.keys(instance)).not.toContain('spawn');
  });

  it('reads the goal in any order, and a single literal without and', () => {
    const reordered = small(
      '(not (ispoint pos1-0))\n    (not (ispoint pos0-0))',
      '(not (ispoint pos0-0))\n    (not (ispoint pos1-0))',
    );
    expect(snakeInstanceFromPddl(reordered)).toEqual(snakeInstanceFromPddl(SMALL));
    const noSpawn = small('(spawn pos0-0)\n    (NEXTSPAWN pos0-0 dummypoint)', '(spawn dummypoint)');
    const single = noSpawn.replace(/\(:goal[\s\S]*\)\)\n\)\n$/, '(:goal (not (ispoint pos1-0))))\n');
    expect(snakeInstanceFromPddl(single)).toMatchObject({ apples: [[1, 0]] });
    expect(snakeInstanceFromPddl(single)).not.toHaveProperty('spawn');
  });

  it('refuses a problem of another domain, naming it', () => {
    const error = errorOf(small('(:domain snake)', '(:domain blocksworld)'));
    expect(error.field).toBe('input');
    expect(error.message).toBe('input: line 3: domain blocksworld: only the IPC-2018 snake domain is read');
  });

  it('refuses an unknown predicate, a wrong arity and an unknown object, naming the fact and its line', () => {
    const unknown = small('(blocked pos2-0)', '(blocked pos2-0)\n    (foo pos1-1)');
    expect(errorOf(unknown).message).toBe(
      `input: line ${lineOf(unknown, '(foo')}: unknown fact (foo pos1-1)`,
    );
    const arity = small('(blocked pos2-0)', '(blocked pos2-0 pos1-0)');
    expect(errorOf(arity).message).toBe(
      `input: line ${lineOf(arity, '(blocked pos2-0 pos1-0)')}: (blocked pos2-0 pos1-0): blocked takes 1 argument, got 2`,
    );
    const object = small('(ispoint pos1-0)', '(ispoint pos7-0)');
    expect(errorOf(object).message).toBe(
      `input: line ${lineOf(object, '(ispoint pos7-0)')}: (ispoint pos7-0): unknown object pos7-0`,
    );
    const named = small('pos0-1 pos1-1\n', 'pos0-1 pos1-1 cell9\n');
    expect(errorOf(named).message).toMatch(/^input: line 6: unknown object cell9/);
    const dummy = small('(ispoint pos1-0)', '(ispoint dummypoint)');
    expect(errorOf(dummy).message).toMatch(/: \(ispoint dummypoint\): dummypoint is no cell$/);
  });

  it('refuses a section or a requirement it does not read', () => {
    expect(errorOf(small('(:domain snake)', '(:domain snake)\n(:requirements :typing)')).message).toBe(
      'input: line 4: requirement :typing is not read',
    );
    expect(errorOf(small('(:goal', '(:metric minimize (total-cost))\n(:goal')).message).toMatch(
      /^input: line \d+: section :metric is not read$/,
    );
    expect(errorOf(small('(:domain snake)', '')).message).toBe('input: line 2: no (:domain snake) section');
    expect(errorOf(small('pos0-1 pos1-1\n', 'pos0-1 - cell\n')).message).toMatch(/typed objects/);
  });

  it('refuses ISADJACENT that is not the 4-neighbour relation of the cells present', () => {
    const diagonal = small('(headsnake pos1-1)', '(ISADJACENT pos0-0 pos1-1)\n    (headsnake pos1-1)');
    expect(errorOf(diagonal).message).toBe(
      `input: line ${lineOf(diagonal, '(ISADJACENT pos0-0 pos1-1)')}: (ISADJACENT pos0-0 pos1-1): the cells are not 4-neighbours`,
    );
    const oneWay = small('(ISADJACENT pos1-0 pos1-1) ', '');
    expect(errorOf(oneWay).message).toBe(
      `input: line ${lineOf(SMALL, '(:init')}: no (ISADJACENT pos1-0 pos1-1): every two neighbouring cells must be adjacent, both ways`,
    );
  });

  it('refuses a snake that is not one chain from headsnake to tailsnake over its blocked cells', () => {
    const broken = small('(nextsnake pos1-1 pos0-1)', '(nextsnake pos0-0 pos0-1)');
    expect(errorOf(broken).message).toMatch(/the snake breaks off at pos1-1: no \(nextsnake pos1-1 \.\.\.\)/);
    const stray = small(
      '(nextsnake pos1-1 pos0-1)',
      '(nextsnake pos1-1 pos0-1)\n    (nextsnake pos1-0 pos0-0)',
    );
    expect(errorOf(stray).message).toBe(
      `input: line ${lineOf(stray, '(nextsnake pos1-0')}: (nextsnake pos1-0 pos0-0): not on the snake from headsnake to tailsnake`,
    );
    const twoHeads = small('(headsnake pos1-1)', '(headsnake pos1-1)\n    (headsnake pos1-0)');
    expect(errorOf(twoHeads).message).toMatch(/\(headsnake pos1-0\): a second headsnake/);
    const unblocked = small('(blocked pos0-1)\n', '');
    expect(errorOf(unblocked).message).toMatch(/the snake's cell pos0-1 is not blocked/);
    const lone = small('(nextsnake pos1-1 pos0-1)\n    (tailsnake pos0-1)', '(tailsnake pos1-1)');
    expect(errorOf(lone).message).toMatch(/a one-cell snake/);
  });

  it('refuses a spawn chain that does not run to dummypoint, or a stray NEXTSPAWN', () => {
    const open = small('(NEXTSPAWN pos0-0 dummypoint)', '(NEXTSPAWN pos1-0 dummypoint)');
    expect(errorOf(open).message).toMatch(/the spawn chain breaks off at pos0-0/);
    const loop = small('(NEXTSPAWN pos0-0 dummypoint)', '(NEXTSPAWN pos0-0 pos0-0)');
    expect(errorOf(loop).message).toMatch(/\(NEXTSPAWN pos0-0 pos0-0\): the spawn chain runs in a loop/);
  });

  it('refuses a goal other than clearing exactly the apples and spawn cells', () => {
    const missing = small('    (not (ispoint pos0-0))\n', '');
    expect(errorOf(missing).message).toMatch(/the goal lacks \(not \(ispoint pos0-0\)\)/);
    const extra = small('(not (ispoint pos0-0))', '(not (ispoint pos0-0)) (not (ispoint pos1-1))');
    expect(errorOf(extra).message).toMatch(/goal \(not \(ispoint pos1-1\)\): pos1-1 holds no apple/);
    const other = small('(not (ispoint pos0-0))', '(not (ispoint pos0-0)) (headsnake pos0-0)');
    expect(errorOf(other).message).toMatch(/goal \(headsnake pos0-0\): only \(not \(ispoint CELL\)\) goals/);
  });

  it('refuses unbalanced parentheses, naming the line', () => {
    const unclosed = small('(blocked pos2-0)', '(blocked pos2-0');
    expect(errorOf(unclosed).message).toMatch(/^input: line \d+: '\(' never closed$/);
    expect(errorOf(SMALL + ')').message).toBe(
      `input: line ${SMALL.split('\n').length}: ')' with no '(' open`,
    );
    expect(errorOf(SMALL + '(extra)').message).toMatch(/text after the problem's closing parenthesis/);
  });
});

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const IPC = join(REPO_ROOT, '..', 'shared', 'snake-ipc2018');

// The IPC-2018 problems are not in the repository (docs/cli.md#pddl-input): read beside it.
describe.skipIf(!existsSync(IPC))('the IPC-2018 Snake problems (../shared/snake-ipc2018)', () => {
  const problems = Array.from({ length: 20 }, (_, i) => `p${String(i + 1).padStart(2, '0')}`);
  const read = (p: string): { text: string; instance: SnakePddlInstance } => {
    const text = readFileSync(join(IPC, `${p}.pddl`), 'utf8');
    return { text, instance: snakeInstanceFromPddl(text) };
  };

  it.each(problems)('%s reads as a consistent instance', (p) => {
    const { text, instance } = read(p);
    // The problem's name says the grid, the snake's length less one, the apples and the spawns.
    const [, w, h, grown, apples, spawns] = /snake-empty-(\d+)x(\d+)-(\d+)-(\d+)-(\d+)-/
      .exec(text)!
      .map(Number);
    expect(instance).toMatchObject({ width: w, height: h, length: grown! + 1, order: 'any', tail: 'strict' });
    expect(instance.walls).toBeUndefined();
    expect(instance.body).toHaveLength(instance.length);
    expect(instance.apples).toHaveLength(apples!);
    expect(instance.spawn).toHaveLength(spawns!);
    const key = ([x, y]: readonly number[]): string => `${x},${y}`;
    const inGrid = ([x, y]: readonly number[]): boolean => x! >= 0 && y! >= 0 && x! < w! && y! < h!;
    for (const cells of [instance.body, instance.apples, instance.spawn!]) {
      expect(cells.every(inGrid)).toBe(true);
      expect(new Set(cells.map(key)).size).toBe(cells.length);
    }
    for (let i = 1; i < instance.body.length; i++) {
      const [[ax, ay], [bx, by]] = [instance.body[i - 1]!, instance.body[i]!];
      expect(Math.abs(ax - bx) + Math.abs(ay - by)).toBe(1);
    }
    const onBody = new Set(instance.body.map(key));
    expect(instance.apples.filter((c) => onBody.has(key(c)))).toEqual([]);
  });

  it('p04 is the instance its file states', () => {
    expect(read('p04').instance).toEqual({
      width: 5,
      height: 5,
      length: 2,
      body: [
        [1, 4],
        [1, 3],
      ],
      apples: [
        [4, 1],
        [0, 0],
        [2, 3],
        [2, 4],
        [3, 1],
      ],
      order: 'any',
      spawn: [
        [1, 2],
        [0, 1],
        [0, 2],
      ],
      tail: 'strict',
    });
  });

  it('the domain file is no problem', () => {
    expect(isPddlProblem(readFileSync(join(IPC, 'domain.pddl'), 'utf8'))).toBe(false);
  });
});

describe('PDDL errors on large or deep input', () => {
  it('quote a cut-short fact and stay InputErrors', () => {
    const deep = small('(blocked pos2-0)', `${'('.repeat(50_000)}${')'.repeat(50_000)}`);
    const error = errorOf(deep);
    expect(error.message).toMatch(/expected a fact \(PREDICATE OBJECT \.\.\.\), got \(+\.\.\.\)+$/);
    const long = small('(blocked pos2-0)', `(blocked ${'pos0-0 '.repeat(10_000)})`);
    expect(errorOf(long).message.length).toBeLessThan(400);
  });
});

describe('a 200x200 problem', () => {
  it('reads a snake of 20,000 cells and a spawn chain of 19,999', () => {
    const side = 200;
    const name = (x: number, y: number): string => `pos${x}-${y}`;
    // A serpentine over rows 0..99 (the snake, head at [0, 0]) and rows 100..199 (the spawn chain).
    const serpentine = (rows: number[]): string[] =>
      rows.flatMap((y, r) => Array.from({ length: side }, (_, i) => name(r % 2 === 0 ? i : side - 1 - i, y)));
    const snake = serpentine(Array.from({ length: 100 }, (_, i) => i));
    const spawn = serpentine(Array.from({ length: 100 }, (_, i) => 100 + i));
    const apple = spawn.pop()!;
    const facts: string[] = [];
    for (let x = 0; x < side; x++)
      for (let y = 0; y < side; y++) {
        if (x + 1 < side)
          facts.push(
            `(ISADJACENT ${name(x, y)} ${name(x + 1, y)}) (ISADJACENT ${name(x + 1, y)} ${name(x, y)})`,
          );
        if (y + 1 < side)
          facts.push(
            `(ISADJACENT ${name(x, y)} ${name(x, y + 1)}) (ISADJACENT ${name(x, y + 1)} ${name(x, y)})`,
          );
      }
    facts.push(`(headsnake ${snake[0]}) (tailsnake ${snake.at(-1)})`);
    snake.forEach((c, i) => {
      facts.push(`(blocked ${c})`);
      if (i > 0) facts.push(`(nextsnake ${snake[i - 1]} ${c})`);
    });
    facts.push(`(spawn ${spawn[0]})`);
    spawn.forEach((c, i) => facts.push(`(NEXTSPAWN ${c} ${spawn[i + 1] ?? 'dummypoint'})`));
    facts.push(`(ispoint ${apple})`);
    const objects = Array.from({ length: side * side }, (_, i) => name(i % side, Math.floor(i / side)));
    const goal = [apple, ...spawn].map((c) => `(not (ispoint ${c}))`).join(' ');
    const text = `(define (problem big) (:domain snake) (:objects ${objects.join(' ')})
      (:init ${facts.join('\n')}) (:goal (and ${goal})))`;
    // The vitest timeout is the guard: a reader quadratic in the cells would take minutes here.
    const instance = snakeInstanceFromPddl(text);
    expect(instance).toMatchObject({ width: side, height: side, length: 20_000 });
    expect(instance.spawn).toHaveLength(19_999);
    expect(instance.apples).toEqual([[0, 199]]);
    expect(instance.walls).toBeUndefined();
  });
});
