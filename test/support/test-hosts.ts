import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { repoRoot } from './run-cli.js';

/** What a link does to the frames crossing it, in both directions (tc netem's `delay` and `loss`). */
export interface LinkConditions {
  delayMs: number;
  /** The delay varies uniformly within +- this. */
  jitterMs: number;
  lossPercent: number;
}

const CLEAR: LinkConditions = { delayMs: 0, jitterMs: 0, lossPercent: 0 };

/** A host of a test network: its namespace, address, and the link that can be impaired. */
interface Host {
  netns: string;
  address: string;
  /** The process carrying its link's frames, for a host made with `impairable`. */
  link?: { process: ChildProcess };
}

/** Signals whose default action ends the process without an exit event. */
const GUARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Name prefix of every namespace this module makes: `satfarm-hosts-<pid>-...`. */
const NETNS_PREFIX = 'satfarm-hosts-';

/**
 * Hosts for a test: one network namespace each, on a private /24 the test picked at random and
 * found unused, joined by a bridge in a namespace of its own, with the test's own process on the
 * same subnet (a veth from where it runs). The namespaces have no route beyond that subnet, so
 * traffic goes only to addresses the test made. A process runs on a host through `launcher`
 * (`ip netns exec`).
 *
 * An `impairable` host's link can be given delay, jitter and loss (`impair`), as `tc qdisc ...
 * netem` would on both of its ends; the link is two TAP devices and `impaired-link.c` between
 * them, so it works on kernels built without sch_netem. Any host's link can be cut (`cut`: its
 * interface goes down, as a pulled cable) and mended.
 *
 * `remove()` kills every process in the namespaces, then deletes them (with their links); it also
 * runs at the process's exit and on SIGINT, SIGTERM and SIGHUP, and `create` first removes the
 * namespaces of earlier runs whose process is gone (one killed outright).
 */
export class TestHosts {
  private removed = false;
  private readonly exitGuard = (): void => this.remove();
  /** On a signal that would end the process without its exit event: clean up, then end as it would. */
  private readonly signalGuard = (signal: NodeJS.Signals): void => {
    this.remove();
    process.kill(process.pid, signal);
  };

  private constructor(
    readonly subnet: string,
    /** The test process's own address on the subnet. */
    readonly clientAddress: string,
    private readonly switchNetns: string,
    private readonly hosts: Map<string, Host>,
    private readonly dir: string,
  ) {
    process.once('exit', this.exitGuard);
    for (const signal of GUARDED_SIGNALS) process.once(signal, this.signalGuard);
  }

  /**
   * Makes hosts `names` (short: each names an interface too); those in `impairable` get links
   * `impair` can degrade.
   */
  static async create(names: string[], options: { impairable?: string[] } = {}): Promise<TestHosts> {
    if (new Set(names).size !== names.length)
      throw new Error(`host names must be distinct: ${names.join(', ')}`);
    for (const name of names)
      if (!/^[a-z][a-z0-9]{0,9}$/.test(name) || name === 'test' || name === 'br0')
        throw new Error(`host name '${name}': a short word of lowercase letters and digits, not test or br0`);
    removeAbandoned();
    const subnet = unusedSubnet();
    const run = `${NETNS_PREFIX}${process.pid}-${randomBytes(2).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'satfarm-hosts-'));
    const switchNetns = `${run}-switch`;
    const hosts = new Map<string, Host>();
    const test = new TestHosts(subnet, `${subnet}.1`, switchNetns, hosts, dir);
    try {
      ip('netns', 'add', switchNetns);
      ip('-n', switchNetns, 'link', 'add', 'br0', 'type', 'bridge');
      ip('-n', switchNetns, 'link', 'set', 'dev', 'br0', 'up');
      // The test's own link: a veth from its namespace to the switch.
      const own = `sfh${randomBytes(4).toString('hex')}`;
      ip('link', 'add', own, 'type', 'veth', 'peer', 'name', 'test', 'netns', switchNetns);
      ip('-n', switchNetns, 'link', 'set', 'dev', 'test', 'master', 'br0', 'up');
      ip('addr', 'add', `${test.clientAddress}/24`, 'dev', own);
      ip('link', 'set', 'dev', own, 'up');
      const impairable = new Set(options.impairable ?? []);
      let linkProgram: string | undefined;
      for (const [i, name] of names.entries()) {
        const netns = `${run}-${name}`;
        const host: Host = { netns, address: `${subnet}.${i + 2}` };
        hosts.set(name, host);
        ip('netns', 'add', netns);
        ip('-n', netns, 'link', 'set', 'dev', 'lo', 'up');
        if (impairable.has(name)) {
          linkProgram ??= buildLinkProgram(dir);
          host.link = { process: await startLink(linkProgram, netns, switchNetns, name) };
        } else {
          ip(...`link add eth0 netns ${netns} type veth peer name ${name} netns ${switchNetns}`.split(' '));
        }
        ip('-n', switchNetns, 'link', 'set', 'dev', name, 'master', 'br0', 'up');
        ip('-n', netns, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
        ip('-n', netns, 'link', 'set', 'dev', 'eth0', 'up');
      }
    } catch (err) {
      test.remove();
      throw err;
    }
    return test;
  }

  /** The address of host `name` on the subnet. */
  address(name: string): string {
    return this.host(name).address;
  }

  /** The command prefix that runs a program on host `name`. */
  launcher(name: string): string[] {
    return ['ip', 'netns', 'exec', this.host(name).netns];
  }

  /** Gives host `name`'s link `conditions` in both directions, from now on. */
  impair(name: string, conditions: LinkConditions): void {
    const link = this.host(name).link;
    if (link === undefined) throw new Error(`host ${name} was not made impairable`);
    const { delayMs, jitterMs, lossPercent } = conditions;
    link.process.stdin!.write(`${delayMs} ${jitterMs} ${lossPercent}\n`);
  }

  /** A clear link again. */
  clear(name: string): void {
    this.impair(name, CLEAR);
  }

  /** Cuts host `name` off the network: its interface goes down (frames to it are lost). */
  cut(name: string): void {
    ip('-n', this.host(name).netns, 'link', 'set', 'dev', 'eth0', 'down');
  }

  /** Puts host `name` back on the network, with the address and route it had. */
  mend(name: string): void {
    ip('-n', this.host(name).netns, 'link', 'set', 'dev', 'eth0', 'up');
  }

  /** The pids of the processes running on host `name`. */
  processes(name: string): number[] {
    return pidsIn(this.host(name).netns);
  }

  /** Kills every process on the hosts and deletes the namespaces and links; idempotent. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    process.removeListener('exit', this.exitGuard);
    for (const signal of GUARDED_SIGNALS) process.removeListener(signal, this.signalGuard);
    const namespaces = [...[...this.hosts.values()].map((h) => h.netns), this.switchNetns];
    removeNamespaces(namespaces);
    for (const host of this.hosts.values()) host.link?.process.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private host(name: string): Host {
    const host = this.hosts.get(name);
    if (host === undefined) throw new Error(`no host ${name}`);
    return host;
  }
}

/**
 * Whether this process may make network namespaces: root (CI runs as root on this kind of machine,
 * with iproute2 from scripts/install-system-deps.sh).
 */
export function canMakeHosts(): boolean {
  return process.getuid?.() === 0;
}

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function pidsIn(netns: string): number[] {
  try {
    return ip('netns', 'pids', netns)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** SIGKILLs every process in `namespaces`, waits until they are gone, and deletes the namespaces. */
function removeNamespaces(namespaces: string[]): void {
  const existing = new Set(listNamespaces());
  const present = namespaces.filter((ns) => existing.has(ns));
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 100; i++) {
    const pids = present.flatMap(pidsIn);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    Atomics.wait(pause, 0, 0, 50);
  }
  for (const ns of present) {
    try {
      ip('netns', 'del', ns);
    } catch {
      // Removed by another cleanup meanwhile.
    }
  }
}

function listNamespaces(): string[] {
  return ip('netns', 'list')
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((name) => name !== '');
}

/** Removes the namespaces of earlier runs whose process has ended (a run killed before cleanup). */
function removeAbandoned(): void {
  const abandoned = listNamespaces().filter((ns) => {
    if (!ns.startsWith(NETNS_PREFIX)) return false;
    const pid = Number(ns.slice(NETNS_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
  removeNamespaces(abandoned);
}

/** A 10.x.y.0/24 that no address or route of this namespace overlaps; returns `10.x.y`. */
function unusedSubnet(): string {
  const used = [
    ...ip('-4', '-o', 'addr', 'show').matchAll(/inet (\d+\.\d+\.\d+\.\d+)\/(\d+)/g),
    ...ip('-4', 'route', 'show', 'table', 'all').matchAll(/^(?:\S+ )?(\d+\.\d+\.\d+\.\d+)(?:\/(\d+))?/gm),
  ].map((m) => ({ base: ipv4(m[1]!), bits: Number(m[2] ?? 32) }));
  for (let i = 0; i < 100; i++) {
    const prefix = `10.${randomInt(16, 255)}.${randomInt(0, 256)}`;
    const base = ipv4(`${prefix}.0`);
    const overlaps = used.some(({ base: other, bits }) => {
      const common = Math.min(bits, 24);
      const mask = common === 0 ? 0 : (0xffffffff << (32 - common)) >>> 0;
      return (base & mask) >>> 0 === (other & mask) >>> 0;
    });
    if (!overlaps) return prefix;
  }
  throw new Error('no unused 10.x.y.0/24 found');
}

function ipv4(text: string): number {
  return text.split('.').reduce((value, part) => ((value << 8) | Number(part)) >>> 0, 0);
}

/** Compiles impaired-link.c into `dir` (the C compiler the native spawn host is built with). */
function buildLinkProgram(dir: string): string {
  const program = join(dir, 'impaired-link');
  execFileSync(
    'cc',
    [
      '-O2',
      '-std=c11',
      '-Wall',
      '-Wextra',
      '-Werror',
      '-o',
      program,
      join(repoRoot, 'test/support/impaired-link.c'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return program;
}

/** Starts the link of `name`: `eth0` in its namespace, port `name` in the switch's. */
function startLink(program: string, netns: string, switchNetns: string, name: string): Promise<ChildProcess> {
  const child = spawn(program, [netns, 'eth0', switchNetns, name], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`impaired-link exited with ${code}: ${stderr}`)));
  });
}
