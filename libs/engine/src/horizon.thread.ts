import { parentPort, workerData } from 'node:worker_threads';

import { gameById } from '@satfarm/games';
import { createSolver, installSolverReaper, type SatSolver, type SolverName } from '@satfarm/solver';

import { importGameLookup } from './games-module.js';
import type { HorizonThreadData, HorizonThreadReply, HorizonThreadRequest } from './horizon-threads.js';
import { ParsedInstanceCache } from './parsed-instance.cache.js';
import { runHorizon } from './run-horizon.js';
import { serializeRunError } from './run-error.js';

/**
 * One slot of a `HorizonThreadPool`: runs the horizons it is sent, one at a time, with
 * `runHorizon`. Its event loop is the one a formula build holds, never the worker's.
 */
const data = workerData as HorizonThreadData;
const stop = new Int32Array(data.stop);
// A thread hears no signals; its solvers die with its spawn host's channel, or with the process.
installSolverReaper({ signals: [] });
const games = data.gamesModule === undefined ? gameById : await importGameLookup(data.gamesModule);
const instances = new ParsedInstanceCache();
const solvers = new Map<SolverName, SatSolver>();
let running: { id: number; abort: AbortController } | undefined;

function solverNamed(name: SolverName): SatSolver {
  let solver = solvers.get(name);
  if (solver === undefined) {
    solver = createSolver(name, { ...data.solverLimits, launch: data.solverLaunch });
    solvers.set(name, solver);
  }
  return solver;
}

const reply = (message: HorizonThreadReply): void => parentPort!.postMessage(message);

async function runTask(request: Extract<HorizonThreadRequest, { kind: 'run' }>): Promise<void> {
  const abort = new AbortController();
  running = { id: request.id, abort };
  try {
    const game = games(request.game);
    const instance = instances.getOrParse(request.instanceKey, () =>
      request.parsed === true ? request.instance : game.parse(request.instance),
    );
    const solver = solverNamed(request.solver);
    const solverName = await solver.version();
    const result = await runHorizon(game, instance, request.run, solver, {
      signal: abort.signal,
      stop: () => Atomics.load(stop, 0) === 1,
      onProgress: (progress, formula) =>
        reply({
          kind: 'progress',
          id: request.id,
          progress: { ...progress, ...formula, solver: solverName },
        }),
    });
    // The model stays here: the caller needs the plan, and a model is as large as the formula's variables.
    const { model: _model, ...sendable } = result as typeof result & { model?: unknown };
    reply({ kind: 'done', id: request.id, result: sendable });
  } catch (err) {
    reply({ kind: 'failed', id: request.id, error: serializeRunError(err) });
  } finally {
    running = undefined;
  }
}

parentPort!.on('message', (request: HorizonThreadRequest) => {
  if (request.kind === 'run') void runTask(request);
  else if (running?.id === request.id) running.abort.abort('cancelled');
});
reply({ kind: 'ready' });
