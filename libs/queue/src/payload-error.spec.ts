import { describe, expect, it } from 'vitest';

import { BatchRequestSchema, JobRequestSchema } from './job-request.schema.js';
import { parsePayload, PayloadError } from './payload-error.js';

function issuesOf(run: () => unknown): Array<{ field: string; reason: string }> {
  try {
    run();
  } catch (err) {
    if (err instanceof PayloadError) return err.issues;
    throw err;
  }
  throw new Error('no error');
}

describe(parsePayload.name, () => {
  it('returns the parsed value of a valid body', () => {
    const sut = parsePayload(JobRequestSchema, {
      game: 'cnf',
      instance: 'p cnf 1 1\n1 0\n',
      options: { priority: 5 },
    });
    expect(sut.options?.priority).toBe(5);
  });

  it('quotes an unknown key that does not read as a name', () => {
    const fields = (options: Record<string, unknown>) =>
      issuesOf(() => parsePayload(JobRequestSchema, { game: 'cnf', instance: 'x', options })).map(
        (i) => i.field,
      );
    expect(fields({ '': 1 })).toEqual(['options[""]']);
    expect(fields({ 'a b\n': 1 })).toEqual(['options["a b\\n"]']);
  });

  it('names nested fields, array indexes and unknown keys', () => {
    expect(
      issuesOf(() =>
        parsePayload(JobRequestSchema, { game: 'cnf', instance: 'x', options: { maxHorizon: 1.5 } }),
      )[0]?.field,
    ).toBe('options.maxHorizon');
    expect(
      issuesOf(() => parsePayload(JobRequestSchema, { game: 'cnf', instance: 'x', extra: 1 }))[0],
    ).toEqual({
      field: 'extra',
      reason: 'unknown field',
    });
    const batch = { jobs: [{ game: 'cnf', instance: 'x' }, { game: 'cnf' }] };
    expect(issuesOf(() => parsePayload(BatchRequestSchema, batch))[0]?.field).toBe('jobs[1].instance');
  });

  it('puts the fields under a root when given one, and names the body itself when it is not an object', () => {
    expect(issuesOf(() => parsePayload(JobRequestSchema, { instance: 'x' }, 'data'))[0]?.field).toBe(
      'data.game',
    );
    expect(issuesOf(() => parsePayload(JobRequestSchema, 'text'))[0]?.field).toBe('(body)');
  });
});
