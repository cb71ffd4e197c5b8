import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  encodeHeader,
  type EncodeHeaderFacts,
  HEADER_INSTANCE_MAX_BYTES,
  instanceSha256,
} from './encode-header.js';

const facts: EncodeHeaderFacts = {
  version: '9.8.7',
  game: 'cube',
  input: { size: 2, scramble: "R U F'" },
  summary: "2x2 R U F'",
  horizon: 3,
  meaning: { sat: 'a plan of at most 3 moves exists', unsat: 'no plan of 3 moves or fewer', notes: [] },
};

function lines(header: string): string[] {
  expect(header.endsWith('\n')).toBe(true);
  return header.slice(0, -1).split('\n');
}

describe(encodeHeader.name, () => {
  it('names the version, game, instance and its hash, horizon, choices, and the answers', () => {
    const sha = createHash('sha256').update('{"scramble":"R U F\'","size":2}').digest('hex');
    expect(lines(encodeHeader(facts))).toEqual([
      'c satfarm 9.8.7 encode: the formula satfarm solve gives a solver',
      'c game: cube',
      'c instance: {"size":2,"scramble":"R U F\'"}',
      `c instance sha256: ${sha} (of its canonical JSON, keys sorted)`,
      'c horizon: 3',
      "c encoding: the game's defaults",
      'c SAT: a plan of at most 3 moves exists',
      'c UNSAT: no plan of 3 moves or fewer',
    ]);
  });

  it('writes only comment lines, one per fact, whatever newlines the facts hold', () => {
    const header = encodeHeader({
      ...facts,
      input: 'p cnf 1 1\n1 0',
      summary: '1 vars,\n1 clauses',
      meaning: { sat: 'yes\r\nreally', unsat: 'no', notes: ['first\nnote', 'second'] },
    });
    for (const line of lines(header)) expect(line).toMatch(/^c [^\r\n]*$/);
    expect(lines(header)).toContain('c instance: "p cnf 1 1\\n1 0"');
    expect(lines(header)).toContain('c SAT: yes really');
    expect(lines(header).slice(-2)).toEqual(['c note: first note', 'c note: second']);
  });

  it('says a single-solve game has no horizon and shows the encoding choices in canonical JSON', () => {
    const header = lines(
      encodeHeader({ ...facts, game: 'hexahop', horizon: undefined, encoding: { window: 3, budget: false } }),
    );
    expect(header).toContain('c horizon: none (one formula)');
    expect(header).toContain('c encoding: {"budget":false,"window":3}');
  });

  it('shows a long instance by its summary, still hashed whole', () => {
    const long = 'x'.repeat(HEADER_INSTANCE_MAX_BYTES);
    const header = lines(encodeHeader({ ...facts, input: long, summary: 'a long one' }));
    const bytes = HEADER_INSTANCE_MAX_BYTES + 2;
    expect(header[2]).toBe(`c instance: a long one (summary; its JSON is ${bytes} bytes)`);
    expect(header[3]).toContain(instanceSha256(long));
    // Just at the limit, the JSON is shown.
    const edge = 'x'.repeat(HEADER_INSTANCE_MAX_BYTES - 2);
    expect(lines(encodeHeader({ ...facts, input: edge }))[2]).toBe(`c instance: "${edge}"`);
  });
});

describe(instanceSha256.name, () => {
  it('does not depend on the order of keys', () => {
    expect(instanceSha256({ a: 1, b: [{ d: 2, c: 3 }] })).toBe(instanceSha256({ b: [{ c: 3, d: 2 }], a: 1 }));
    expect(instanceSha256({ a: 1 })).not.toBe(instanceSha256({ a: 2 }));
  });
});
