import { describe, expect, it } from 'vitest';

import { SweepCoordinator } from './sweep-coordinator.js';
import { farm, pigeons, rejection, report } from './testing/coordinator.fakes.js';

const verified = { bytes: 4096, checkMs: 12, result: 'verified' as const };
const rejected = { bytes: 0, checkMs: 3, result: 'rejected' as const };
const statsWith = (t: number, proof: typeof verified | typeof rejected) => ({
  vars: 10 * t,
  clauses: 20 * t,
  solver: 'kissat-4.0.0',
  solverMs: 30,
  encodeMs: 1,
  proof,
});

// Certified jobs (docs/solvers.md#certified-answers).
describe(`${SweepCoordinator.name}: certify`, () => {
  it("queues each horizon with the proof cap, the job's or the farm's, and none for a job that does not certify", async () => {
    const { coordinator, dispatch } = farm({ settings: { proofLimitMiB: 8 } });
    const { jobIds } = await coordinator.submit([
      pigeons({ certify: true }),
      pigeons({ certify: true, proofLimitMiB: 2 }),
      pigeons(),
    ]);
    const caps = (id: string) =>
      dispatch.queued.filter((h) => h.payload.jobId === id).map((h) => h.payload.proofMaxBytes);
    expect(caps(jobIds[0]!)).toEqual([8 << 20, 8 << 20]);
    expect(caps(jobIds[1]!)).toEqual([2 << 20, 2 << 20]);
    expect(caps(jobIds[2]!)).toEqual([undefined, undefined]);
  });

  it("follows the farm's SATFARM_CERTIFY, which a job's certify: false turns off", async () => {
    const { coordinator, dispatch } = farm({ settings: { certify: true } });
    const { jobIds } = await coordinator.submit([pigeons(), pigeons({ certify: false })]);
    const first = dispatch.queued.find((h) => h.payload.jobId === jobIds[0]);
    expect(first?.payload.proofMaxBytes).toBe(4096 * 2 ** 20);
    expect(dispatch.queued.find((h) => h.payload.jobId === jobIds[1])?.payload.proofMaxBytes).toBeUndefined();
  });

  it('refuses a certified job with the farm default minisat, and a proof limit without certify', async () => {
    const { coordinator } = farm({ settings: { solver: 'minisat' } });
    expect((await rejection(coordinator.submit([pigeons({ certify: true })]))).message).toMatch(
      /options\.solver.*minisat writes no proofs/,
    );
    const plain = farm().coordinator;
    expect((await rejection(plain.submit([pigeons({ proofLimitMiB: 5 })]))).message).toMatch(
      /options\.proofLimitMiB/,
    );
  });

  it("says certified once the optimum rests on a verified proof, with each checked horizon's proof", async () => {
    const { coordinator, metrics } = farm();
    const { jobIds } = await coordinator.submit([pigeons({ certify: true })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(report(id, 4, 'sat'));
    expect(await coordinator.resource(id)).toMatchObject({ status: 'running', certified: false });
    await coordinator.handleReport(report(id, 3, 'unsat', { stats: statsWith(3, verified) }));
    const resource = (await coordinator.resource(id))!;
    expect(resource).toMatchObject({ status: 'optimal', horizon: 4, certified: true });
    expect(resource.horizons.find((h) => h.t === 3)?.proof).toEqual(verified);
    const text = await metrics.registry.getSingleMetricAsString('satfarm_proofs_total');
    expect(text).toMatch(/satfarm_proofs_total\{result="verified"\} 1/);
  });

  it('is never optimal on a rejected proof: the horizon is unknown, proof-rejected', async () => {
    const { coordinator, metrics } = farm();
    const { jobIds } = await coordinator.submit([pigeons({ certify: true, parallelism: 2 })]);
    const id = jobIds[0]!;
    await coordinator.handleReport(report(id, 4, 'sat'));
    await coordinator.handleReport(
      report(id, 3, 'unknown', { reason: 'proof-rejected', stats: statsWith(3, rejected) }),
    );
    const resource = (await coordinator.resource(id))!;
    expect(resource.status).not.toBe('optimal');
    expect(resource.certified).toBe(false);
    expect(resource.horizons.find((h) => h.t === 3)).toMatchObject({
      result: 'unknown',
      reason: 'proof-rejected',
      proof: rejected,
    });
    const text = await metrics.registry.getSingleMetricAsString('satfarm_proofs_total');
    expect(text).toMatch(/satfarm_proofs_total\{result="rejected"\} 1/);
  });
});
