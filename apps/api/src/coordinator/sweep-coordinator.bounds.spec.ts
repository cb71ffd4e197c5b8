import { describe, expect, it } from 'vitest';

import { pigeonLadderGame } from '@satfarm/engine/testing';
import type { GameDefinition } from '@satfarm/games';

import { SweepCoordinator } from './sweep-coordinator.js';
import {
  ControlledBounds,
  ControlledQuickPlans,
  farm,
  games,
  pigeons,
  rejection,
  settled,
} from './testing/coordinator.fakes.js';

/**
 * The pigeon ladder with a bound that takes a search: `lowerBound` answers what was adopted for
 * the instance, and otherwise counts a search on the event loop before answering the ladder's own.
 */
function searchedPigeons() {
  const adopted = new Map<string, number>();
  let onEventLoop = 0;
  const ladder = pigeonLadderGame as GameDefinition<unknown, unknown>;
  const game: GameDefinition<unknown, unknown> = {
    ...ladder,
    lowerBound: (instance) => {
      const found = adopted.get(JSON.stringify(instance));
      if (found !== undefined) return found;
      onEventLoop++;
      return ladder.lowerBound(instance);
    },
    quickPlan: () => {
      throw new Error('the coordinator looks for quick plans through its QuickPlanSource');
    },
    searchedBound: {
      find: () => {
        throw new Error('the coordinator searches bounds through its BoundSource');
      },
      adopt: (instance, found) => adopted.set(JSON.stringify(instance), found as number),
    },
  };
  return {
    games: (name: string, field?: string) => (name === 'searched-pigeons' ? game : games(name, field)),
    onEventLoop: () => onEventLoop,
  };
}

/** Five pigeons of the searched ladder, whose own bound (4) the sweep starts one below. */
const searched = (options: Parameters<typeof pigeons>[0] = {}) => pigeons(options, 'searched-pigeons');

describe(`${SweepCoordinator.name}: bounds searched off the event loop`, () => {
  it("start a new job's sweep at the bound its BoundSource found, with no search on the event loop", async () => {
    const game = searchedPigeons();
    const bounds = new ControlledBounds();
    const { coordinator, store, dispatch } = farm({ games: game.games, bounds });

    const submitted = coordinator.submit([searched()]);
    await settled();
    // Asked with the instance as the client sent it; nothing is stored or queued before the answer.
    expect(bounds.searches).toMatchObject([
      { game: 'searched-pigeons', instance: { pigeons: 5, lowerBound: 4 } },
    ]);
    expect(store.jobs.size).toBe(0);
    expect(dispatch.queued).toHaveLength(0);

    bounds.searches[0]!.answer({ value: 6 });
    const { jobIds } = await submitted;
    expect(dispatch.queuedTs).toEqual([5, 6]);
    await expect(coordinator.resource(jobIds[0]!)).resolves.toMatchObject({ bounds: { lower: 5 } });
    expect(game.onEventLoop()).toBe(0);
  });

  it("give each job of a batch its own search's bound, whatever order the answers come in, and send no game without one", async () => {
    const game = searchedPigeons();
    const bounds = new ControlledBounds();
    const { coordinator } = farm({ games: game.games, bounds });

    const created = coordinator.createBatch([searched(), pigeons(), searched({ parallelism: 1 })]);
    await settled();
    expect(bounds.searches.map((s) => s.game)).toEqual(['searched-pigeons', 'searched-pigeons']);
    bounds.searches[1]!.answer({ value: 8 });
    bounds.searches[0]!.answer({ value: 6 });
    const { jobIds } = await created;

    const lower = await Promise.all(jobIds.map(async (id) => (await coordinator.resource(id))?.bounds.lower));
    expect(lower).toEqual([5, 3, 7]);
    expect(game.onEventLoop()).toBe(0);
  });

  it('leave the bound to the event loop when the search fails or finds nothing', async () => {
    const game = searchedPigeons();
    const bounds = new ControlledBounds();
    const { coordinator, dispatch } = farm({ games: game.games, bounds });

    const submitted = coordinator.submit([searched(), searched({ parallelism: 1 })]);
    await settled();
    bounds.searches[0]!.answer({ error: 'the bound thread stopped' });
    bounds.searches[1]!.answer({});
    await submitted;
    // The ladder's own bound, 4: the sweeps start at 3, as without a BoundSource.
    expect(dispatch.queuedTs).toEqual([3, 4, 3]);
    expect(game.onEventLoop()).toBeGreaterThan(0);
  });

  it("refuse a batch with a bad job once its searches are in, naming the job's field and storing nothing", async () => {
    const game = searchedPigeons();
    const bounds = new ControlledBounds();
    const { coordinator, store, dispatch } = farm({ games: game.games, bounds });

    const created = coordinator.createBatch([searched(), { game: 'no-such-game', instance: {} }]);
    await settled();
    expect(bounds.searches).toHaveLength(1);
    bounds.searches[0]!.answer({ value: 6 });
    const err = await rejection(created);
    expect(err).toMatchObject({ field: 'jobs[1].game' });
    expect(err.message).toMatch(/unknown game/);
    expect(store.jobs.size).toBe(0);
    expect(dispatch.queued).toHaveLength(0);
  });

  it('hand what the search found to the quick plan, which then need not search again', async () => {
    const game = searchedPigeons();
    const bounds = new ControlledBounds();
    const quickPlans = new ControlledQuickPlans();
    const { coordinator } = farm({ games: game.games, bounds, quickPlans });

    const submitted = coordinator.submit([searched()]);
    await settled();
    bounds.searches[0]!.answer({ value: 6 });
    await submitted;
    await settled();
    expect(quickPlans.searches).toMatchObject([{ game: 'searched-pigeons', searched: { found: 6 } }]);
  });
});
