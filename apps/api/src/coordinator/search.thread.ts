import { parentPort, workerData } from 'node:worker_threads';

import { quickPlanOf } from '@satfarm/engine';
import { gameById } from '@satfarm/games';

import type { SearchAnswer, SearchRequest } from './search-thread.js';

/**
 * The thread behind `SearchThread`: parses each job's instance as the API did, then runs its
 * game's quick plan, which the simulator verifies (`quickPlanOf`), or its bound's search
 * (`searchedBound.find`). One task at a time, in order.
 */
const readableFiles = new Set((workerData as { readableFiles: string[] }).readableFiles);

parentPort?.on('message', (request: SearchRequest) => {
  let answer: SearchAnswer;
  try {
    const game = gameById(request.game);
    const instance = game.parse(request.instance, { readableFiles });
    let value: unknown;
    if (request.kind === 'bound') {
      value = game.searchedBound?.find(instance);
    } else {
      if (request.bound !== undefined) game.searchedBound?.adopt(instance, request.bound);
      // The job's deadline on this thread's own clock (performance.now() starts with each thread).
      const deadline =
        request.deadline === undefined ? undefined : performance.now() + (request.deadline - Date.now());
      value = quickPlanOf(game, instance, request.max, deadline);
    }
    answer = value === undefined ? { id: request.id } : { id: request.id, value };
  } catch (err) {
    answer = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
