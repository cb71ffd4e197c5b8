import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { InputError } from './input-error.js';
import {
  JOB_OPTION_KEYS,
  JOB_OPTIONS,
  JobOptionsSchema,
  MAX_JOB_PARALLELISM,
  MAX_PORTFOLIO,
  MAX_TIMEOUT_SEC,
  type OptionSpec,
  parseSolveOptions,
  SolveOptionsSchema,
  SWEEP_ONLY_OPTIONS,
} from './job-options.js';

/** The error `parse` throws. */
function refusal(parse: () => unknown): InputError {
  try {
    parse();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('accepted; a refusal was expected');
}

describe('JobOptionsSchema', () => {
  it('is the table: one field per option, each described with its default on the OpenAPI page', () => {
    const json = z.toJSONSchema(JobOptionsSchema, { io: 'input', unrepresentable: 'any' }) as {
      properties: Record<string, { description?: string }>;
    };
    expect(Object.keys(json.properties)).toEqual(JOB_OPTION_KEYS);
    for (const key of JOB_OPTION_KEYS) {
      const spec: OptionSpec = JOB_OPTIONS[key];
      const text = json.properties[key]?.description;
      expect(text, key).toContain(spec.description);
      if (spec.default !== undefined) expect(text, key).toContain(`default: ${spec.default}`);
    }
  });

  it('takes a portfolio on the farm as in one process, from 1 configuration to the most', () => {
    expect(JobOptionsSchema.safeParse({ portfolio: 4 }).data).toEqual({ portfolio: 4 });
    expect(JobOptionsSchema.safeParse({ portfolio: MAX_PORTFOLIO + 1 }).error?.issues[0]?.path).toEqual([
      'portfolio',
    ]);
    expect(JobOptionsSchema.safeParse({}).success).toBe(true);
    expect(SolveOptionsSchema.safeParse({ portfolio: 4 }).success).toBe(true);
    expect(SolveOptionsSchema.safeParse({ portfolio: 'off' }).success).toBe(true);
    expect(SolveOptionsSchema.safeParse({ portfolio: 0 }).success).toBe(false);
  });

  it('takes a split on the farm as in one process: seconds from 0, or off', () => {
    for (const value of [0, 20.5, 'off']) {
      expect(JobOptionsSchema.safeParse({ split: value }).data).toEqual({ split: value });
      expect(SolveOptionsSchema.safeParse({ split: value }).success).toBe(true);
    }
    for (const value of [-1, MAX_TIMEOUT_SEC + 1, 'on']) {
      expect(JobOptionsSchema.safeParse({ split: value }).error?.issues[0]?.path).toEqual(['split']);
      expect(SolveOptionsSchema.safeParse({ split: value }).success).toBe(false);
    }
  });

  it('refuses an unknown field and a value out of range, naming the field', () => {
    const unknown = JobOptionsSchema.safeParse({ maxHorizn: 3 });
    expect(unknown.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['maxHorizn'] });
    for (const [options, field] of [
      [{ maxHorizon: -1 }, 'maxHorizon'],
      [{ timeoutSec: MAX_TIMEOUT_SEC + 1 }, 'timeoutSec'],
      [{ priority: 101 }, 'priority'],
      [{ solver: 'glucose' }, 'solver'],
      [{ encoding: { window: [1] } }, 'encoding'],
    ] as const) {
      expect(JobOptionsSchema.safeParse(options).error?.issues[0]?.path[0], field).toBe(field);
    }
  });

  it('caps the horizons of a farm job in flight, not those of a solve in this process', () => {
    const many = { parallelism: MAX_JOB_PARALLELISM + 1 };
    expect(JobOptionsSchema.safeParse(many).error?.issues[0]?.path).toEqual(['parallelism']);
    expect(JobOptionsSchema.safeParse({ parallelism: MAX_JOB_PARALLELISM }).success).toBe(true);
    expect(SolveOptionsSchema.parse(many)).toEqual(many);
  });

  it("leaves a farm's own option (priority) out of a solve in this process", () => {
    expect(JobOptionsSchema.parse({ priority: 5 })).toEqual({ priority: 5 });
    expect(SolveOptionsSchema.safeParse({ priority: 5 }).success).toBe(false);
    for (const key of JOB_OPTION_KEYS) {
      const spec: OptionSpec = JOB_OPTIONS[key];
      expect(key in SolveOptionsSchema.shape, key).toBe(spec.farmOnly !== true);
    }
  });
});

describe('SWEEP_ONLY_OPTIONS', () => {
  it("are the options a horizon sweep alone reads, by the table's scope", () => {
    expect([...SWEEP_ONLY_OPTIONS].sort()).toEqual(
      [
        'maxHorizon',
        'minHorizon',
        'patienceSec',
        'plan',
        'policy',
        'presets',
        'quickPlan',
        'split',
        'trustBound',
      ].sort(),
    );
  });
});

describe(parseSolveOptions.name, () => {
  it("takes the user options, as given, and leaves out the caller's own fields and unset ones", () => {
    const signal = new AbortController().signal;
    expect(
      parseSolveOptions({
        maxHorizon: 5,
        quickPlan: false,
        plan: 'N NE',
        policy: undefined,
        signal,
        slots: 3,
      }),
    ).toEqual({ maxHorizon: 5, quickPlan: false, plan: 'N NE' });
  });

  it('refuses a value of the wrong kind or out of range with an InputError naming the option', () => {
    expect(refusal(() => parseSolveOptions({ minHorizon: -1 })).field).toBe('minHorizon');
    expect(refusal(() => parseSolveOptions({ parallelism: 1.5 })).field).toBe('parallelism');
    expect(refusal(() => parseSolveOptions({ patienceSec: 0 })).field).toBe('patienceSec');
    expect(refusal(() => parseSolveOptions({ encoding: { window: [1] } })).field).toBe('encoding.window');
    expect(refusal(() => parseSolveOptions({ timeoutSec: MAX_TIMEOUT_SEC + 1 })).reason).toMatch(
      String(MAX_TIMEOUT_SEC),
    );
  });
});
