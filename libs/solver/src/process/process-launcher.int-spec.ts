import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pigeonhole } from '@satfarm/cnf';
import { describe, expect, it } from 'vitest';

import { KissatRunner } from '../runners/kissat.runner.js';
import type { SolverProgress } from '../solver.types.js';
import { descendantProcesses, groupMembers, processTable, writeScript } from '../testing/process-probe.js';
import {
  defaultSpawnHost,
  launcherFor,
  nativeSpawnHost,
  nodeSpawnHost,
  type SpawnHostProgram,
  SpawnHostLauncher,
  type SolverChild,
} from './process-launcher.js';
import { runSolverProcess } from './solver-process.js';
import { encodeOwnerFrame } from './spawn-host.protocol.js';

const kissats = (): number[] =>
  descendantProcesses()
    .filter((row) => row.command === 'kissat')
    .map((row) => row.pid);

/** Everything a started process prints, and how it ended. */
async function finished(
  child: SolverChild,
): Promise<{ out: string; err: string; ended: [number | null, string | null] }> {
  let out = '';
  let err = '';
  child.stdout.on('data', (text: string) => (out += text));
  child.stderr.on('data', (text: string) => (err += text));
  const ended = await child.closed;
  return { out, err, ended };
}

/** Far beyond a test's time for kissat: runs end by a kill, never on their own. */
const hard = (): ReturnType<typeof pigeonhole> => pigeonhole(12, 11);

const hosts: [string, () => SpawnHostProgram][] = [
  [
    'native',
    () => {
      const path = nativeSpawnHost();
      // `npm run build` builds it; a run without it would silently test the fallback only.
      if (path === undefined) throw new Error('the native spawn host is not built (npm run build:native)');
      return { kind: 'native', path };
    },
  ],
  ['node', nodeSpawnHost],
];

describe.each(hosts)(`${SpawnHostLauncher.name} (%s host)`, (kind, program) => {
  it('starts the solver from the host, in its own process group, and relays its output', async () => {
    const sut = new SpawnHostLauncher(program());
    const child = await sut.launch('kissat', ['-q', '-n']);
    // kissat waits for its input: the process is there to be looked at.
    const row = processTable().find((r) => r.pid === child.pid);
    expect(row?.command).toBe('kissat');
    expect(row?.ppid).toBe(sut.hostPid);
    expect(row?.pgid).toBe(child.pid);
    expect(sut.running).toBe(1);
    child.stdin.end(pigeonhole(4, 3).toDimacs());
    const { out, ended } = await finished(child);
    expect(ended).toEqual([20, null]);
    expect(out).toContain('s UNSATISFIABLE');
    expect(sut.running).toBe(0);
  });

  it('carries megabytes of input and output intact, multi-byte characters split anywhere', async () => {
    const sut = new SpawnHostLauncher(program());
    const child = await sut.launch('cat', []);
    const line = 'p cnf 3 2 ü ∀x ∃y 🧩\n';
    const text = line.repeat(Math.ceil((3 << 20) / line.length));
    let out = '';
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.stderr.resume();
    // In pieces, as the DIMACS writer sends them, each waiting for the pipe to take it.
    for (let at = 0; at < text.length; at += 100_003) {
      const piece = text.slice(at, at + 100_003);
      if (!child.stdin.write(piece)) await once(child.stdin, 'drain');
    }
    child.stdin.end();
    expect(await child.closed).toEqual([0, null]);
    expect(out.length).toBe(text.length);
    expect(out === text).toBe(true);
  });

  it('takes a whole input with the start, even one the process never reads', async () => {
    const sut = new SpawnHostLauncher(program());
    const echo = await sut.launch('cat', [], 'p cnf 1 1\n1 0\nü\n');
    expect(echo.stdin.writableEnded).toBe(true);
    expect(await finished(echo)).toEqual({ out: 'p cnf 1 1\n1 0\nü\n', err: '', ended: [0, null] });

    const deaf = await sut.launch('true', [], 'x'.repeat(60_000));
    expect((await finished(deaf)).ended).toEqual([0, null]);
    expect(sut.running).toBe(0);
  });

  it('reports the exit code, standard error, and a death by signal', async () => {
    const sut = new SpawnHostLauncher(program());
    const failing = await sut.launch('sh', ['-c', 'echo oops >&2; exit 3']);
    failing.stdin.end();
    expect(await finished(failing)).toEqual({ out: '', err: 'oops\n', ended: [3, null] });

    const sleeper = await sut.launch('sleep', ['30']);
    process.kill(-sleeper.pid, 'SIGTERM');
    expect((await finished(sleeper)).ended).toEqual([null, 'SIGTERM']);
  });

  it("gives the process's peak memory and CPU time from its reaping (native host only)", async () => {
    const sut = new SpawnHostLauncher(program());
    // 96 MiB touched, then a spin until the process has used 400 ms of CPU (however loaded the machine).
    const script =
      'Buffer.alloc(96 << 20, 1); const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };' +
      ' while (cpu() < 400);';
    const child = await sut.launch(process.execPath, ['-e', script]);
    child.stdin.end();
    expect((await finished(child)).ended).toEqual([0, null]);
    if (kind === 'native') {
      expect(child.usage?.peakRssKiB).toBeGreaterThan(96 * 1024);
      expect(child.usage?.peakRssKiB).toBeLessThan(1024 * 1024);
      expect(child.usage?.cpuMs).toBeGreaterThanOrEqual(400);
      expect(child.usage?.cpuMs).toBeLessThan(60_000);
    } else {
      // Node's child_process has no rusage of a child.
      expect(child.usage).toBeUndefined();
    }
  });

  it('refuses a command that does not exist, and keeps serving', async () => {
    const sut = new SpawnHostLauncher(program());
    if (kind === 'native') {
      // The host execs the command itself: the errno comes back as the launch's error.
      const error = await sut.launch('satfarm-no-such-solver', []).catch((e: unknown) => e);
      expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
    } else {
      // The Node host starts setpriv, which then fails to exec the command.
      const missing = await sut.launch('satfarm-no-such-solver', []);
      missing.stdin.end();
      const { err, ended } = await finished(missing);
      expect(ended).toEqual([127, null]);
      expect(err).toContain('satfarm-no-such-solver');
    }
    const child = await sut.launch('true', []);
    child.stdin.end();
    expect((await finished(child)).ended).toEqual([0, null]);
  });

  it('when the host dies mid-solve, the run ends killed, no solver is left, and a new host serves the next run', async () => {
    const sut = new SpawnHostLauncher(program());
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
        host = sut.hostPid;
        process.kill(host!, 'SIGKILL');
      },
    });
    const result = await run;
    expect(host).toBeDefined();
    expect(result.signal).toBe('SIGKILL');
    // No handler of the host ran: the parent-death signal is what killed the solver.
    await expect.poll(() => kissats(), { timeout: 5_000 }).toEqual([]);

    const again = await runSolverProcess({
      solver: 'kissat',
      command: 'kissat',
      args: ['-q', '-n'],
      input: pigeonhole(3, 2).dimacsChunks(),
      launcher: sut,
      onStdoutLine: () => undefined,
    });
    expect(again.exitCode).toBe(20);
    expect(sut.hostPid).not.toBe(host);
  });
});

describe('a native host that breaks the protocol', () => {
  it('is killed, and its launches fail, not this process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'satfarm-host-'));
    try {
      // Says it is ready, then answers the first request with an op that does not exist (99).
      const path = await writeScript(
        dir,
        'bad-host',
        `printf '\\000\\000\\000\\000\\001\\000\\000\\000\\000'
head -c 1 >/dev/null
printf '\\000\\000\\000\\000\\143\\001\\000\\000\\000'
exec sleep 30`,
      );
      const sut = new SpawnHostLauncher({ kind: 'native', path });
      const error = await sut.launch('true', []).catch((e: unknown) => e);
      expect(String(error)).toMatch(/spawn host exited \(SIGKILL\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a native host whose owner stops reading', () => {
  it('ends quietly and kills its processes, printing nothing on the terminal the owner shared', async () => {
    const path = nativeSpawnHost();
    if (path === undefined) throw new Error('the native spawn host is not built (npm run build:native)');
    const host = spawn(path, [String(process.pid)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    host.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = once(host, 'exit') as Promise<[number | null, string | null]>;
    // `yes` floods the host with output to relay; the owner then closes its end unread, as a
    // CLI does when it exits with its report printed.
    host.stdin.write(encodeOwnerFrame({ op: 'spawn', id: 1, command: 'yes', args: ['satfarm'] }));
    await once(host.stdout, 'data');
    const relayed = () => descendantProcesses().filter((row) => row.command === 'yes');
    await expect.poll(() => relayed().length, { timeout: 5_000 }).toBe(1);
    host.stdout.destroy();
    const ended = await exited;
    expect(err).toBe('');
    expect(ended).toEqual([0, null]);
    await expect.poll(() => relayed(), { timeout: 5_000 }).toEqual([]);
  });
});

describe('the default launch', () => {
  it('uses the native host where it is built, and solves through it', async () => {
    expect(defaultSpawnHost().kind).toBe(process.platform === 'linux' ? 'native' : 'node');
    const next = await new KissatRunner().solve({ formula: pigeonhole(4, 3) });
    expect(next.status).toBe('unsat');
    // The solve went through the shared host, which is the built native program.
    const shared = launcherFor('host') as SpawnHostLauncher;
    expect(shared.hostPid).toBeDefined();
    expect(realpathSync(`/proc/${shared.hostPid}/exe`)).toBe(realpathSync(nativeSpawnHost()!));
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
