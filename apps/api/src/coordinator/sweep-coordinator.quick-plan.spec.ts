import { describe, expect, it, vi } from 'vitest';

import type { KnownPlan } from '@satfarm/sweep';

import { SweepCoordinator } from './sweep-coordinator.js';
import { ControlledQuickPlans, farm, NOW, pigeons, report, settled } from './testing/coordinator.fakes.js';

/** A quick plan of `length` holes for the five pigeons, as the quick-plan thread answers it. */
function quick(length: number): { known: KnownPlan<unknown> } {
  const holes = Array.from({ length: 5 }, (_, i) => i % length);
  return { known: { plan: { holes }, length, by: 'quick plan', ms: 12 } };
}

/** A farm whose jobs of `quick-pigeons` look for a quick plan, and one such job. */
async function quickJob(options: Parameters<typeof pigeons>[0] = {}) {
  const quickPlans = new ControlledQuickPlans();
  const f = farm({ quickPlans });
  const { jobIds } = await f.coordinator.submit([pigeons(options, 'quick-pigeons')]);
  return { ...f, quickPlans, id: jobIds[0]! };
}

/** What a late quick plan must leave alone. */
function seen(f: Awaited<ReturnType<typeof quickJob>>): unknown {
  return {
    writes: f.store.writes,
    queued: f.dispatch.queued.length,
    stopped: f.dispatch.stopped.length,
    events: f.progress.horizons.length + f.progress.jobs.length,
  };
}

describe(`${SweepCoordinator.name}: quick plans`, () => {
  it("give a new job its game's quick plan as its upper bound: the horizons of its length and above stop", async () => {
    const { coordinator, dispatch, progress, quickPlans, id } = await quickJob({
      parallelism: 3,
      timeoutSec: 30,
    });
    expect(dispatch.queuedTs).toEqual([3, 4, 5]);
    // Looked for once the job is stored, within the job's cap and its deadline.
    expect(quickPlans.searches).toMatchObject([
      { game: 'quick-pigeons', instance: { pigeons: 5, lowerBound: 4 }, max: 9, deadline: NOW + 30_000 },
    ]);

    quickPlans.searches[0]!.answer(quick(5));
    await settled();
    const plan = quick(5).known.plan;
    await expect(coordinator.resource(id)).resolves.toMatchObject({
      horizon: 5,
      solution: plan,
      bounds: { lower: 3, upper: 5 },
    });
    expect(dispatch.stopped).toContainEqual(
      expect.objectContaining({ ids: [`${id}.t5`], reason: 'dominated' }),
    );
    expect(dispatch.removed).toContainEqual([`${id}.t5`]);
    expect(progress.horizons).toContainEqual({ jobId: id, t: 5, state: 'sat', ms: 12, by: 'quick plan' });
    expect(progress.jobs.at(-1)).toMatchObject({ jobId: id, horizon: 5, bounds: { lower: 3, upper: 5 } });

    // The workers need only prove there is nothing shorter.
    await coordinator.handleReport(report(id, 3, 'unsat'));
    await coordinator.handleReport(report(id, 4, 'unsat'));
    const resource = await coordinator.resource(id);
    expect(resource).toMatchObject({ status: 'optimal', horizon: 5, solution: plan });
    expect(resource?.horizons.find((h) => h.t === 5)).toMatchObject({ result: 'sat', by: 'quick plan' });
  });

  it('are not looked for when the job says no, or its game has none', async () => {
    const quickPlans = new ControlledQuickPlans();
    const { coordinator } = farm({ quickPlans });
    await coordinator.submit([pigeons({ quickPlan: false }, 'quick-pigeons'), pigeons()]);
    expect(quickPlans.searches).toEqual([]);
  });

  it.each([
    [
      'fails',
      (search: ControlledQuickPlans['searches'][number]) => search.answer({ error: 'out of memory' }),
    ],
    ['throws', (search: ControlledQuickPlans['searches'][number]) => search.fail(new Error('thread gone'))],
    [
      'finds none, or gives up at the deadline',
      (search: ControlledQuickPlans['searches'][number]) => search.answer({}),
    ],
  ])('leave the job as it was when the search %s, and the sweep goes on', async (_, end) => {
    const f = await quickJob();
    const before = seen(f);
    end(f.quickPlans.searches[0]!);
    await settled();
    expect(seen(f)).toEqual(before);
    await expect(f.coordinator.resource(f.id)).resolves.toMatchObject({
      status: 'queued',
      bounds: { lower: 3 },
    });

    await f.coordinator.handleReport(report(f.id, 4, 'unsat'));
    await f.coordinator.handleReport(report(f.id, 5, 'sat'));
    await expect(f.coordinator.resource(f.id)).resolves.toMatchObject({ status: 'optimal', horizon: 5 });
  });

  it.each(['solved', 'cancelled'] as const)('that land after the job was %s change nothing', async (end) => {
    const f = await quickJob();
    if (end === 'solved') {
      await f.coordinator.handleReport(report(f.id, 4, 'unsat'));
      await f.coordinator.handleReport(report(f.id, 5, 'sat'));
    } else {
      await f.coordinator.cancel(f.id);
    }
    const final = await f.coordinator.resource(f.id);
    const before = seen(f);
    f.quickPlans.searches[0]!.answer(quick(5));
    await settled();
    expect(seen(f)).toEqual(before);
    await expect(f.coordinator.resource(f.id)).resolves.toEqual(final);
  });

  it('that land after the deadline ended the job change nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const f = await quickJob({ timeoutSec: 10 });
      f.advance(10_000);
      await vi.advanceTimersByTimeAsync(10_000);
      await settled();
      const final = await f.coordinator.resource(f.id);
      expect(final).toMatchObject({ status: 'unknown' });
      const before = seen(f);
      f.quickPlans.searches[0]!.answer(quick(5));
      await settled();
      expect(seen(f)).toEqual(before);
      await expect(f.coordinator.resource(f.id)).resolves.toEqual(final);
    } finally {
      vi.useRealTimers();
    }
  });

  it('that land after the workers found a plan as short change nothing; a shorter one replaces theirs', async () => {
    const short = await quickJob({ parallelism: 3 });
    await short.coordinator.handleReport(report(short.id, 5, 'sat'));
    const before = seen(short);
    short.quickPlans.searches[0]!.answer(quick(5));
    await settled();
    expect(seen(short)).toEqual(before);

    const long = await quickJob({ parallelism: 3 });
    await long.coordinator.handleReport(report(long.id, 3, 'unsat'));
    expect(long.dispatch.queuedTs).toEqual([3, 4, 5, 6]);
    await long.coordinator.handleReport(report(long.id, 6, 'sat'));
    long.quickPlans.searches[0]!.answer(quick(5));
    await settled();
    await expect(long.coordinator.resource(long.id)).resolves.toMatchObject({
      status: 'running',
      horizon: 5,
      solution: quick(5).known.plan,
      bounds: { lower: 4, upper: 5 },
    });
    // Horizon 5's answer is known: its run stops.
    expect(long.dispatch.stopped).toContainEqual(
      expect.objectContaining({ ids: [`${long.id}.t5`], reason: 'dominated' }),
    );
  });
});
