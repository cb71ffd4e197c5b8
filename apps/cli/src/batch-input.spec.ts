import { describe, expect, it } from 'vitest';

import { InputError } from '@satfarm/games';

import { batchEntries, defaultLabel, fileEntry, jsonLinesEntries } from './batch-input.js';

const cube = (scramble: string): string => JSON.stringify({ size: 2, scramble });

/** The InputError `run` throws, for its message. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe(jsonLinesEntries.name, () => {
  it('makes one job a line, skipping blank lines, with the line options over the flags', () => {
    const text = [
      JSON.stringify({ game: 'cube', instance: { size: 2, scramble: 'R' } }),
      '',
      '   ',
      JSON.stringify({ game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { priority: 7 } }),
    ].join('\n');
    const entries = jsonLinesEntries({ name: 'jobs.jsonl', text }, { priority: 1, timeoutSec: 5 });
    expect(entries.map((e) => [e.line, e.request.game, e.request.options])).toEqual([
      [1, 'cube', { priority: 1, timeoutSec: 5 }],
      [4, 'cnf', { priority: 7, timeoutSec: 5 }],
    ]);
  });

  it('takes --game for lines without one', () => {
    const [entry] = jsonLinesEntries({ name: '-', text: '{"instance": "p cnf 1 1\\n1 0\\n"}' }, {}, 'cnf');
    expect(entry!.request.game).toBe('cnf');
  });

  it('refuses a bad line naming the source, the line and the field', () => {
    const text = `${JSON.stringify({ game: 'cnf', instance: 'p cnf 1 1\n1 0\n' })}\n{"game": "cube"`;
    expect(refusal(() => jsonLinesEntries({ name: 'j.jsonl', text }, {}))).toMatch(
      /^j\.jsonl:2: line: invalid JSON/,
    );
    expect(refusal(() => jsonLinesEntries({ name: '-', text: '{"instance": 1}' }, {}))).toMatch(
      /^-:1: game: required/,
    );
    expect(
      refusal(() => jsonLinesEntries({ name: '-', text: '{"game": "cnf", "instance": 1, "extra": 2}' }, {})),
    ).toBe('-:1: extra: unknown field');
    expect(
      refusal(() =>
        jsonLinesEntries(
          { name: '-', text: '{"game": "cnf", "instance": 1, "options": {"priority": -1}}' },
          {},
        ),
      ),
    ).toMatch(/^-:1: options\.priority: /);
  });
});

describe(fileEntry.name, () => {
  it('makes one job of a file, its game by --game, name or content', () => {
    expect(fileEntry({ name: 'a.json', text: cube('R U') }, {}).request).toEqual({
      game: 'cube',
      instance: { size: 2, scramble: 'R U' },
      options: {},
    });
    expect(
      fileEntry({ name: 'x', text: 'p cnf 1 1\n1 0\n' }, { priority: 3 }, 'cnf').request.options,
    ).toEqual({
      priority: 3,
    });
  });

  it('reads a JSON file holding a job request as that job', () => {
    const text = JSON.stringify({ game: 'hexahop', instance: 'Orbital', options: { maxHorizon: 9 } });
    expect(fileEntry({ name: 'job.json', text }, { priority: 2 }).request).toEqual({
      game: 'hexahop',
      instance: 'Orbital',
      options: { priority: 2, maxHorizon: 9 },
    });
  });

  it('refuses an empty or undecidable file naming it', () => {
    expect(refusal(() => fileEntry({ name: 'e.txt', text: ' \n' }, {}))).toBe('e.txt: input: is empty');
    expect(refusal(() => fileEntry({ name: 'q.txt', text: 'what' }, {}))).toMatch(/^q\.txt: game: .*--game/);
  });
});

describe(batchEntries.name, () => {
  it('checks every job by its game before answering: a bad file is named with its field', () => {
    const texts = [
      { name: 'cubes/a.json', text: cube('R') },
      { name: 'cubes/b.json', text: cube('R X') },
    ];
    expect(refusal(() => batchEntries(texts, {}))).toMatch(/^cubes\/b\.json: scramble: unknown move 'X'/);
  });

  it("names a line's instance fields and options from the line", () => {
    const texts = [{ name: 'j.jsonl', text: `\n${JSON.stringify({ game: 'cube', instance: { size: 4 } })}` }];
    expect(refusal(() => batchEntries(texts, {}))).toMatch(/^j\.jsonl:2: instance\.size: must be 2 or 3/);
    const cnf = [{ name: 'f.cnf', text: 'p cnf 1 1\n1 0\n' }];
    expect(refusal(() => batchEntries(cnf, { maxHorizon: 3 }))).toMatch(
      /^f\.cnf: options\.maxHorizon: applies to planning games/,
    );
  });

  it('keeps the order of the texts and of their lines', () => {
    const texts = [
      { name: 'b.cnf', text: 'p cnf 1 1\n1 0\n' },
      {
        name: 'a.jsonl',
        text: `${JSON.stringify({ game: 'cube', instance: { size: 2, scramble: 'U' } })}\n`,
      },
      { name: 'c.json', text: cube('F') },
    ];
    expect(batchEntries(texts, {}).map((e) => e.source)).toEqual(['b.cnf', 'a.jsonl', 'c.json']);
  });
});

describe(defaultLabel.name, () => {
  it("is the first source's name, none for standard input", () => {
    expect(defaultLabel(['data/cubes/', 'x.cnf'])).toBe('cubes');
    expect(defaultLabel(['a/b.jsonl'])).toBe('b.jsonl');
    expect(defaultLabel(['-'])).toBeUndefined();
  });
});
