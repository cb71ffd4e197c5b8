import { parentPort, workerData } from 'node:worker_threads';

import { quickPlanOf } from '@satfarm/engine';
import { gameById } from '@satfarm/games';

import type { QuickPlanAnswer, QuickPlanRequest } from './quick-plan.pool.js';

/**
 * The thread behind `QuickPlanPool`: parses each job's instance as the API did and runs its game's
 * quick plan, which the simulator verifies (`quickPlanOf`). One request at a time, in order.
 */
const readableFiles = new Set((workerData as { readableFiles: string[] }).readableFiles);

parentPort?.on('message', (request: QuickPlanRequest) => {
  let answer: QuickPlanAnswer;
  try {
    const game = gameById(request.game);
    const instance = game.parse(request.instance, { readableFiles });
    // The job's deadline on this thread's own clock (performance.now() starts with each thread).
    const deadline =
      request.deadline === undefined ? undefined : performance.now() + (request.deadline - Date.now());
    const known = quickPlanOf(game, instance, request.max, deadline);
    answer = known === undefined ? { id: request.id } : { id: request.id, known };
  } catch (err) {
    answer = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
