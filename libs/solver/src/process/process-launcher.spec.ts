import { pigeonhole } from '@satfarm/cnf';
import { describe, expect, it } from 'vitest';

import { KissatRunner } from '../runners/kissat.runner.js';
import type { SolverProgress } from '../solver.types.js';
import { descendantProcesses, groupMembers, processTable } from '../testing/process-probe.js';
import { SpawnHostLauncher } from './process-launcher.js';
import { runSolverProcess } from './solver-process.js';

const kissats = (): number[] =>
  descendantProcesses()
    .filter((row) => row.command === 'kissat')
    .map((row) => row.pid);

/** Far beyond a test's time for kissat: runs end by a kill, never on their own. */
const hard = (): ReturnType<typeof pigeonhole> => pigeonhole(12, 11);

describe(SpawnHostLauncher.name, () => {
  it('starts the solver from the host, not from this process, and relays its output', async () => {
    const sut = new SpawnHostLauncher();
    const child = await sut.launch('kissat', ['-q', '-n']);
    // kissat waits for its input: the process is there to be looked at.
    const row = processTable().find((r) => r.pid === child.pid);
    expect(row?.command).toBe('kissat');
    expect(row?.ppid).not.toBe(process.pid);
    expect(row?.pgid).toBe(child.pid);
    expect(sut.running).toBe(1);
    let out = '';
    child.stdout.on('data', (text: string) => (out += text));
    child.stderr.resume();
    child.stdin.end(pigeonhole(4, 3).toDimacs());
    expect(await child.closed).toEqual([20, null]);
    expect(out).toContain('s UNSATISFIABLE');
    expect(sut.running).toBe(0);
  });

  it('rejects a command that does not exist with its errno code, and keeps serving', async () => {
    const sut = new SpawnHostLauncher();
    const error = await sut.launch('satfarm-no-such-solver', []).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
    const child = await sut.launch('true', []);
    child.stdin.end();
    child.stdout.resume();
    child.stderr.resume();
    expect(await child.closed).toEqual([0, null]);
  });

  it('when the host dies mid-solve, the run ends killed, no solver is left, and a new host serves the next run', async () => {
    const sut = new SpawnHostLauncher();
    let host: number | undefined;
    const run = runSolverProcess({
      solver: 'kissat',
      command: 'kissat',
      args: [],
      input: hard().dimacsChunks(),
      launcher: sut,
      timeoutMs: 20_000,
      onStdoutLine: (line) => {
        // Kill the host at the first line the solver prints: it is running by then.
        if (host !== undefined || !line.startsWith('c')) return;
        const solver = processTable().find((row) => row.command === 'kissat' && kissats().includes(row.pid));
        if (solver === undefined) return;
        host = solver.ppid;
        process.kill(host, 'SIGKILL');
      },
    });
    const result = await run;
    expect(host).toBeDefined();
    expect(result.signal).toBe('SIGKILL');
    await expect.poll(() => kissats(), { timeout: 5_000 }).toEqual([]);

    const next = await new KissatRunner().solve({ formula: pigeonhole(4, 3) });
    expect(next.status).toBe('unsat');
    const again = await runSolverProcess({
      solver: 'kissat',
      command: 'kissat',
      args: ['-q', '-n'],
      input: pigeonhole(3, 2).dimacsChunks(),
      launcher: sut,
      onStdoutLine: () => undefined,
    });
    expect(again.exitCode).toBe(20);
  });
});

describe('direct launch', () => {
  it('solves and cancels like the host does, leaving no process behind', async () => {
    const runner = new KissatRunner({ launch: 'direct' });
    expect((await runner.solve({ formula: pigeonhole(4, 3) })).status).toBe('unsat');
    const controller = new AbortController();
    let seen: number[] = [];
    const outcome = await runner.solve({
      formula: hard(),
      signal: controller.signal,
      timeoutMs: 20_000,
      onProgress: (_p: SolverProgress) => {
        if (seen.length > 0) return;
        seen = descendantProcesses()
          .filter((row) => row.command === 'kissat' && row.ppid === process.pid)
          .map((row) => row.pid);
        controller.abort();
      },
    });
    expect(outcome.status).toBe('cancelled');
    expect(seen.length).toBe(1);
    for (const pid of seen) expect(groupMembers(pid)).toEqual([]);
  });
});
