import { beforeAll, describe, expect, it } from 'vitest';

import { solveParsed, type SolveEvent } from '@satfarm/engine';
import { pigeonLadderGame } from '@satfarm/engine/testing';

import { isAlive, solversUnder } from './support/process-table.js';
import { waitUntil } from './support/waits.js';

const kissatDescendants = (): number[] => solversUnder(process.pid);

/**
 * The solvers below this process that were not there when the spec began: a test file that ran
 * earlier in the same worker process answers for its own (every spec checks its own orphans).
 */
const before = new Set<number>();
const kissatChildren = (): number[] => kissatDescendants().filter((pid) => !before.has(pid));

describe('an in-process horizon sweep', () => {
  beforeAll(() => {
    for (const pid of kissatDescendants()) before.add(pid);
  });

  it('cancelled mid-solve leaves no kissat process alive', async () => {
    const controller = new AbortController();
    const seen = new Set<number>();
    let running = 0;
    let sweep!: Promise<unknown>;
    const started = new Promise<void>((resolve) => {
      const onEvent = (e: SolveEvent): void => {
        if (e.type === 'horizon' && e.state === 'running' && ++running === 2) resolve();
      };
      // From 11 holes up: the first two horizons (13 pigeons into 11 and 12 holes) run far longer
      // than the test, so the two solvers it sees are the ones it cancels. Starting lower, a
      // horizon of 1 or 2 holes is refuted in a few ms and its successor starts meanwhile.
      sweep = solveParsed(
        pigeonLadderGame,
        { pigeons: 13, lowerBound: 11 },
        { parallelism: 2, signal: controller.signal, onEvent },
      );
    });
    try {
      await started;
      // The solvers are spawned right after the 'running' events; only the process table shows them.
      await waitUntil(
        () => {
          kissatChildren().forEach((pid) => seen.add(pid));
          return seen.size >= 2;
        },
        { what: 'both kissat processes of the sweep', timeoutMs: 2_000 },
      );
      expect(seen.size).toBe(2);
    } finally {
      controller.abort();
    }
    const report = (await sweep) as { status: string };
    expect(report.status).toBe('unknown');
    for (const pid of seen) expect(isAlive(pid)).toBe(false);
    expect(kissatChildren()).toEqual([]);
  });

  it('finishes optimal with every dominated horizon cancelled and no solver left', async () => {
    const report = await solveParsed(pigeonLadderGame, { pigeons: 9 }, { parallelism: 2, policy: 'probe' });
    expect(report).toMatchObject({ status: 'optimal', horizon: 9, bounds: { lower: 9, upper: 9 } });
    // Every horizon ended decided or cancelled: none is reported as still open.
    for (const h of report.horizons) expect(['sat', 'unsat', 'cancelled']).toContain(h.result);
    expect(kissatChildren()).toEqual([]);
  });
});
