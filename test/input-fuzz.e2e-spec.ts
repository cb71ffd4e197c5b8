import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CnfFormula, DimacsSyntaxError, parseDimacs } from '@satfarm/cnf';
import { availableGames, gameById, InputError } from '@satfarm/games';

import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import type { ApiProcess } from './support/farm-processes.js';
import { runCli } from './support/run-cli.js';

/**
 * Property-based fuzzing of every way input enters: the game parsers (DIMACS, Tatham game IDs,
 * scrambles, facelets, snake and level JSON), the HTTP bodies of the API and the command line.
 * Every input is either accepted or refused as bad input naming a field; nothing else may happen.
 */

/** What a parser did with one input: accepted it, or refused it as an InputError naming a field. */
function outcome(parse: () => unknown): 'accepted' | 'refused' {
  try {
    parse();
    return 'accepted';
  } catch (err) {
    // Anything but an InputError is a crash: the CLI would exit 4 and the API answer 500.
    if (!(err instanceof InputError)) throw err;
    expect(err.field).toMatch(/\S/);
    expect(err.reason).toMatch(/\S/);
    expect(err.message.startsWith(`${err.field}: `)).toBe(true);
    return 'refused';
  }
}

const smallInt = fc.integer({ min: -3, max: 12 });
/** Values a careless or hostile client puts in a field. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  smallInt,
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 1e300, -0, '', '3', 'x', true, false, null, [], {}),
  fc.string({ maxLength: 8 }),
  fc.array(fc.tuple(smallInt, smallInt), { maxLength: 6 }),
  fc.array(smallInt, { maxLength: 8 }),
  fc.jsonValue({ maxDepth: 2 }),
);
/** An object with some of `keys` (and sometimes a stray one), each holding `value`. */
const objectOf = (keys: string[], value: fc.Arbitrary<unknown> = oddValue) =>
  fc.dictionary(fc.constantFrom(...keys, 'extra', '__proto__', 'constructor'), value, {
    maxKeys: keys.length + 1,
  });
/** Strings over `alphabet`, where near misses of a format live. */
const textOver = (alphabet: string, maxLength = 40) =>
  fc.array(fc.constantFrom(...alphabet.split('')), { maxLength }).map((cs) => cs.join(''));
/** `valid` with one character replaced, inserted or removed. */
const mutated = (valid: string, alphabet: string) =>
  fc
    .tuple(
      fc.nat({ max: valid.length }),
      fc.constantFrom(...alphabet.split('')),
      fc.constantFrom('set', 'insert', 'delete'),
    )
    .map(([i, c, op]) =>
      op === 'set'
        ? valid.slice(0, i) + c + valid.slice(i + 1)
        : op === 'insert'
          ? valid.slice(0, i) + c + valid.slice(i)
          : valid.slice(0, i) + valid.slice(i + 1),
    );

const RUNS = 600;

describe('the parsers, fuzzed', () => {
  it('DIMACS: every text is a formula that matches its header, or a syntax error naming a line', () => {
    const token = fc.oneof(
      fc.constantFrom(
        'p',
        'cnf',
        'c',
        '%',
        '0',
        '-0',
        '-',
        '1',
        '-1',
        '2',
        '3',
        '99',
        '2147483648',
        'x',
        '\n',
        '\n',
        '\t',
        '\r\n',
        ' ',
      ),
      fc.integer({ min: -5, max: 5 }).map(String),
    );
    const text = fc.oneof(
      fc.array(token, { maxLength: 30 }).map((ts) => ts.join(' ')),
      fc
        .tuple(fc.nat({ max: 4 }), fc.nat({ max: 4 }), fc.array(token, { maxLength: 20 }))
        .map(([v, c, ts]) => `p cnf ${v} ${c}\n${ts.join(' ')}`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(text, (dimacs) => {
        let formula: CnfFormula;
        try {
          formula = parseDimacs(dimacs);
        } catch (err) {
          if (!(err instanceof DimacsSyntaxError)) throw err;
          expect(err.line).toBeGreaterThanOrEqual(1);
          expect(err.line).toBeLessThanOrEqual(dimacs.split('\n').length + 1);
          return;
        }
        const header = /p\s+cnf\s+(\d+)\s+(\d+)/.exec(dimacs)!;
        expect(formula.numVars).toBe(Number(header[1]));
        expect(formula.numClauses).toBe(Number(header[2]));
      }),
      { numRuns: 3 * RUNS },
    );
  });

  it('DIMACS: a formula written out reads back as the same clauses', () => {
    const clauses = fc.array(
      fc.array(
        fc.integer({ min: 1, max: 6 }).chain((v) => fc.constantFrom(v, -v)),
        { minLength: 1, maxLength: 5 },
      ),
      {
        maxLength: 8,
      },
    );
    fc.assert(
      fc.property(clauses, fc.constantFrom(' ', '  ', '\t'), fc.boolean(), (cs, gap, comments) => {
        const lines = cs.map((c) => `${c.join(gap)}${gap}0`);
        const text = `${comments ? 'c fuzzed\n' : ''}p cnf 6 ${cs.length}\n${lines.join(comments ? '\nc between\n' : '\n')}\n`;
        const formula = parseDimacs(text);
        expect(Array.from(formula.clauses(), (c) => Array.from(c))).toEqual(cs);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(availableGames())('%s: any JSON value or text is parsed or refused naming a field', (name) => {
    const game = gameById(name);
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 30 })), (input) => {
        outcome(() => game.parse(input));
      }),
      { numRuns: RUNS },
    );
  });

  const nearMisses: Array<[string, string, fc.Arbitrary<unknown>]> = [
    [
      'towers',
      'a Tatham game ID',
      fc.oneof(
        textOver('0123456789/:,.abcdefghijklmnopqrstuvwxyz_'),
        mutated('5:////3/2//4///3//2//3//4///,v1b', '0123456789/:,.abvz'),
      ),
    ],
    ['towers', 'an object', objectOf(['n', 'top', 'bottom', 'left', 'right', 'givens'])],
    [
      'singles',
      'a Tatham game ID',
      fc.oneof(textOver('0123456789x:dek'), mutated('4x3:344313243423', '0123456789x:dek')),
    ],
    [
      'singles',
      'an object',
      objectOf(
        ['grid', 'width', 'height'],
        fc.oneof(oddValue, fc.array(fc.array(smallInt, { maxLength: 5 }), { maxLength: 5 })),
      ),
    ],
    [
      'cube',
      'a scramble',
      objectOf(
        ['size', 'scramble', 'metric'],
        fc.oneof(oddValue, fc.constantFrom(2, 3, 'htm', 'qtm'), textOver("RULDFBrudlfbMESxyz2'w3 ", 24)),
      ),
    ],
    [
      'cube',
      'facelets',
      fc.record({
        size: fc.constantFrom(2, 3, 4),
        facelets: fc.oneof(
          textOver('URFDLBX', 54),
          fc
            .shuffledSubarray('UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB'.split(''))
            .map((a) => a.join('')),
        ),
      }),
    ],
    ['snake', 'an object', objectOf(['width', 'height', 'length', 'apples', 'order', 'body'])],
    [
      'tictactoe',
      'an object',
      objectOf(
        ['board', 'player', 'k'],
        fc.oneof(oddValue, fc.array(textOver('XO.x?', 4), { maxLength: 4 }), fc.constantFrom('X', 'O')),
      ),
    ],
    [
      'hexahop',
      'level JSON',
      objectOf(
        ['level', 'map', 'start', 'items', 'name'],
        fc.oneof(oddValue, fc.array(textOver(' .#gGbBwWtTeE0123456789', 6), { maxLength: 4 })),
      ),
    ],
    [
      'hexahop',
      'a level file path',
      fc.record({
        level: fc.constantFrom('1', 'Orbital', 'x'),
        levels: fc.constantFrom(
          '/',
          '/nonexistent',
          '/dev/null',
          '/dev/zero',
          'package.json',
          '/proc/self/status',
          '',
        ),
      }),
    ],
  ];
  it.each(nearMisses)('%s, %s near the format: parsed or refused naming a field', (name, _what, input) => {
    const game = gameById(name);
    fc.assert(
      fc.property(input, (value) => {
        outcome(() => game.parse(value));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the HTTP API, fuzzed', () => {
  let farm: Farm;
  const key = 'fuzz-key-0123456789abcdef';
  const auth = { authorization: `Bearer ${key}` };
  let api: ApiProcess;

  beforeAll(async () => {
    // Rate limit off: the fuzzer sends thousands of requests on purpose.
    farm = await startFarm({
      name: 'fuzz',
      apis: [{ env: { SATFARM_API_KEYS: key, SATFARM_RATE_LIMIT: '0', SATFARM_MAX_BODY_BYTES: '4096' } }],
      progress: false,
    });
    api = farm.api;
  });

  afterAll(async () => {
    await farm?.stop();
  });

  const jobBody = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    objectOf(['game', 'instance', 'options']),
    fc.record(
      {
        game: fc.oneof(fc.constantFrom(...availableGames(), 'staircase'), fc.string({ maxLength: 6 })),
        instance: fc.oneof(
          oddValue,
          objectOf(['size', 'scramble', 'width', 'height', 'apples', 'n', 'grid', 'board', 'optimum']),
        ),
        options: objectOf([
          'maxHorizon',
          'parallelism',
          'timeoutSec',
          'solver',
          'priority',
          'unique',
          'policy',
          'patienceSec',
          'presets',
        ]),
      },
      { requiredKeys: [] },
    ),
  );

  /** Every answer is 201, or 400 whose message names its field, or 413 for a body too large. */
  async function answers(path: string, body: unknown): Promise<void> {
    const answer = await http<{ field?: string; message?: string }>(api.url, 'POST', path, body, auth);
    expect([201, 400, 413]).toContain(answer.status);
    if (answer.status === 400) {
      expect(answer.body.field).toMatch(/\S/);
      expect(answer.body.message).toContain(answer.body.field);
    }
  }

  it('POST /v1/jobs: any body is accepted or refused with 400 naming the field, never an error of the server', async () => {
    await fc.assert(
      fc.asyncProperty(jobBody, (body) => answers('/v1/jobs', body)),
      { numRuns: 2 * RUNS },
    );
  });

  it('POST /v1/batches: the same, with the index of the job at fault', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(objectOf(['jobs']), fc.record({ jobs: fc.array(jobBody, { maxLength: 4 }) })),
        (body) => answers('/v1/batches', body),
      ),
      { numRuns: RUNS },
    );
  });

  it('bodies that are not JSON, or too large, are refused too', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 4100, maxLength: 5000 })),
        (text) => answers('/v1/jobs', text),
      ),
      { numRuns: RUNS / 2 },
    );
  });
});

describe('the command line, fuzzed', () => {
  // A process per case: few cases, each one an input its game's parser refuses.
  const refused = fc
    .tuple(
      fc.constantFrom<string>('snake', 'cube', 'tictactoe', 'towers', 'singles'),
      objectOf(['width', 'height', 'size', 'scramble', 'board', 'n', 'grid']),
    )
    .map(([game, value]) => {
      try {
        gameById(game).parse(value);
        return undefined;
      } catch (err) {
        return err instanceof InputError ? { game, value, field: err.field } : undefined;
      }
    })
    .filter((c): c is { game: string; value: Record<string, unknown>; field: string } => c !== undefined);

  it('satfarm solve exits 2 naming the field for input its game refuses', async () => {
    await fc.assert(
      fc.asyncProperty(refused, async ({ game, value, field }) => {
        const run = await runCli(['solve', game, '--input', '-', '--json'], { stdin: JSON.stringify(value) });
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`bad input: ${field}`);
      }),
      { numRuns: 12 },
    );
  });
});
