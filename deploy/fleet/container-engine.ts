import { execFile } from 'node:child_process';

import { ContainerEngineError } from './fleet-errors.js';

export interface ContainerInfo {
  id: string;
  name: string;
  labels: Record<string, string>;
  /** created, running, exited, ... */
  state: string;
  /** healthy, unhealthy, starting, or '' without a health check. */
  health: string;
  /** Host port of each published container port ("3000/tcp" -> "127.0.0.1:3000"). */
  published: Record<string, string>;
  restarts: number;
}

export interface EngineResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Podman's or Docker's command line, run as child processes. */
export class ContainerEngine {
  constructor(
    readonly program: 'podman' | 'docker',
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Runs a command; the result whatever its exit code. */
  attempt(args: readonly string[], timeoutMs = 300_000): Promise<EngineResult> {
    return new Promise((resolve, reject) => {
      execFile(
        this.program,
        args,
        { env: this.env, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs },
        (err, stdout, stderr) => {
          if (err === null) return resolve({ code: 0, stdout, stderr });
          if (typeof err.code === 'number') return resolve({ code: err.code, stdout, stderr });
          reject(new ContainerEngineError(`${this.program} ${args.slice(0, 2).join(' ')}: ${err.message}`));
        },
      );
    });
  }

  /** Runs a command that must succeed; its standard output. */
  async run(args: readonly string[], timeoutMs?: number): Promise<string> {
    const result = await this.attempt(args, timeoutMs);
    if (result.code !== 0) {
      // Podman prints warnings (e.g. about systemd) before the real error; the last lines say it.
      const reason = result.stderr.trim().split('\n').slice(-3).join('\n');
      throw new ContainerEngineError(
        `${this.program} ${args.slice(0, 2).join(' ')} failed (exit ${result.code}): ${reason}`,
      );
    }
    return result.stdout;
  }

  async imageExists(image: string): Promise<boolean> {
    return (await this.attempt(['image', 'inspect', '--format', '{{.Id}}', image])).code === 0;
  }

  async containers(filter: string): Promise<ContainerInfo[]> {
    const ids = (await this.run(['ps', '--all', '--quiet', '--no-trunc', '--filter', filter]))
      .split('\n')
      .filter(Boolean);
    if (ids.length === 0) return [];
    // A container removed between the two commands is left out, not an error.
    const result = await this.attempt(['container', 'inspect', ...ids]);
    const inspected = JSON.parse(result.stdout === '' ? '[]' : result.stdout) as InspectedContainer[];
    return inspected.map(toContainerInfo);
  }

  async names(kind: 'network' | 'volume', filter: string): Promise<string[]> {
    return (await this.run([kind, 'ls', '--format', '{{.Name}}', '--filter', filter]))
      .split('\n')
      .filter(Boolean);
  }

  async labelsOf(kind: 'network' | 'volume', name: string): Promise<Record<string, string> | undefined> {
    const result = await this.attempt([kind, 'inspect', name]);
    if (result.code !== 0) return undefined;
    const [object] = JSON.parse(result.stdout) as Array<{
      labels?: Record<string, string>;
      Labels?: Record<string, string>;
    }>;
    return object?.labels ?? object?.Labels ?? {};
  }

  /** The network's IPv4 subnet, and whether it answers DNS for container aliases. */
  async networkAddressing(name: string): Promise<{ subnet: string; dns: boolean }> {
    const [network] = JSON.parse(await this.run(['network', 'inspect', name])) as Array<{
      subnets?: Array<{ subnet: string }>;
      dns_enabled?: boolean;
      IPAM?: { Config?: Array<{ Subnet?: string }> };
    }>;
    if (network === undefined) throw new ContainerEngineError(`network ${name} not found`);
    if (this.program === 'docker') return { subnet: network.IPAM?.Config?.[0]?.Subnet ?? '', dns: true };
    const subnet = (network.subnets ?? []).map((s) => s.subnet).find((s) => s.includes('.')) ?? '';
    return { subnet, dns: network.dns_enabled === true };
  }

  /**
   * Runs a container's health check now: Podman's checks are driven by systemd timers, which a
   * machine without systemd lacks, so the fleet runs them itself. Docker's daemon runs them.
   */
  async checkHealth(container: string): Promise<{ healthy: boolean; output: string }> {
    if (this.program === 'podman') {
      const result = await this.attempt(['healthcheck', 'run', container], 60_000);
      return { healthy: result.code === 0, output: (result.stdout + result.stderr).trim() };
    }
    const [info] = await this.containers(`id=${container}`).catch(() => []);
    return { healthy: info?.health === 'healthy', output: info?.health ?? 'gone' };
  }

  async logsTail(container: string, lines = 15): Promise<string> {
    const result = await this.attempt(['logs', '--tail', String(lines), container]);
    return (result.stdout + result.stderr).trim();
  }
}

interface InspectedContainer {
  Id: string;
  Name: string;
  RestartCount?: number;
  Config: { Labels?: Record<string, string> | null };
  State: { Status: string; Health?: { Status?: string }; Healthcheck?: { Status?: string } };
  NetworkSettings?: { Ports?: Record<string, Array<{ HostIp: string; HostPort: string }> | null> };
}

function toContainerInfo(c: InspectedContainer): ContainerInfo {
  const published: Record<string, string> = {};
  for (const [port, bindings] of Object.entries(c.NetworkSettings?.Ports ?? {}))
    if (bindings?.[0] !== undefined)
      published[port] = `${bindings[0].HostIp || '0.0.0.0'}:${bindings[0].HostPort}`;
  return {
    id: c.Id,
    name: c.Name.replace(/^\//, ''),
    labels: c.Config.Labels ?? {},
    state: c.State.Status,
    health: c.State.Health?.Status ?? c.State.Healthcheck?.Status ?? '',
    published,
    restarts: c.RestartCount ?? 0,
  };
}
