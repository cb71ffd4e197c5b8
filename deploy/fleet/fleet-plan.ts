import type { Variables } from './compose-interpolation.js';
import type { ServiceSpec } from './compose-file.js';
import { FleetInputError } from './fleet-errors.js';

/** The service `scale` and `--workers` size. */
export const WORKER_SERVICE = 'worker';
/** Labels every container, volume and network of a fleet carries. */
export const FLEET_LABEL = 'satfarm.fleet';
export const ROLE_LABEL = 'satfarm.role';
export const REPLICA_LABEL = 'satfarm.replica';
/** On the network: the fleet's settings at `up`, which `scale` starts new workers with. */
export const SETTINGS_LABEL = 'satfarm.fleet.settings';
/** The most workers a fleet runs: one address each in its network (below). */
export const MAX_WORKERS = 150;

/** A fleet name: also the prefix of its container, volume and network names. */
export function checkFleetName(name: string, field = '--name'): string {
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(name))
    throw new FleetInputError(
      field,
      `expected 1 to 40 lower-case letters, digits, - or _ (starting with a letter or digit), got ${JSON.stringify(name)}`,
    );
  return name;
}

export const containerName = (fleet: string, service: string, replica: number): string =>
  `${fleet}-${service}-${replica}`;
export const volumeName = (fleet: string, volume: string): string => `${fleet}_${volume}`;
export const networkName = (fleet: string): string => `${fleet}_default`;

/** The label filter that selects exactly one fleet's objects (`--filter label=...`). */
export const fleetFilter = (fleet: string): string => `label=${FLEET_LABEL}=${fleet}`;

/** How containers find each other by service name. */
export type NameResolution =
  /** The network answers DNS for aliases (Docker, Podman with a DNS plugin). */
  | { kind: 'dns' }
  /** No DNS on the network: fixed addresses, and every service name in each /etc/hosts. */
  | { kind: 'hosts'; subnet: string };

/**
 * A container's fixed address in a network without DNS: the services in file order from .10,
 * the workers' replicas from .100, so no address is ever handed to another container while one
 * restarts.
 */
export function fixedAddress(subnet: string, services: string[], service: string, replica: number): string {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(subnet);
  if (match === null || Number(match[5]) > 24)
    throw new Error(`the fleet needs an IPv4 network of /24 or larger, got ${subnet}`);
  const base = match.slice(1, 5).map(Number);
  const host =
    service === WORKER_SERVICE
      ? 100 + replica
      : 10 + services.filter((s) => s !== WORKER_SERVICE).indexOf(service);
  if (host > 250 || host < 10) throw new Error(`no fixed address for ${service} ${replica}`);
  return `${base[0]}.${base[1]}.${base[2]}.${host}`;
}

export interface RunContext {
  fleet: string;
  /** The image each service runs, chosen by `resolveImages`. */
  images: ReadonlyMap<string, string>;
  /** The services the fleet runs, in file order (skipped ones left out). */
  services: readonly string[];
  names: NameResolution;
  /** The fleet's environment, for the variables a service passes through (a null value). */
  environment: Variables;
}

/** The arguments of `podman run` (or `docker run`) for one replica of a service. */
export function runArguments(service: ServiceSpec, replica: number, ctx: RunContext): string[] {
  const args = ['run', '--detach', '--name', containerName(ctx.fleet, service.name, replica)];
  for (const [key, value] of Object.entries(labels(ctx.fleet, service.name, replica)))
    args.push('--label', `${key}=${value}`);
  args.push('--network', networkName(ctx.fleet));
  if (ctx.names.kind === 'dns') args.push('--network-alias', service.name);
  else {
    args.push('--ip', fixedAddress(ctx.names.subnet, [...ctx.services], service.name, replica));
    for (const other of ctx.services)
      if (other !== WORKER_SERVICE)
        args.push('--add-host', `${other}:${fixedAddress(ctx.names.subnet, [...ctx.services], other, 1)}`);
  }
  for (const [key, value] of Object.entries(service.environment)) {
    const passed = value ?? ctx.environment[key];
    if (passed !== undefined) args.push('--env', `${key}=${passed}`);
  }
  for (const mount of service.volumes) {
    const source = mount.kind === 'volume' ? volumeName(ctx.fleet, mount.source) : mount.source;
    args.push('--volume', `${source}:${mount.target}${mount.readOnly ? ':ro' : ''}`);
  }
  for (const path of service.tmpfs) args.push('--tmpfs', path);
  if (service.readOnly) args.push('--read-only');
  // A fleet is reached on loopback only, whatever address the file would publish on.
  for (const p of service.ports)
    args.push('--publish', `127.0.0.1:${p.hostPort}:${p.containerPort}${p.protocol === 'udp' ? '/udp' : ''}`);
  const check = service.healthcheck;
  if (check !== undefined) {
    // Docker's --health-cmd is always a shell command; an exec form becomes its exact quoting.
    args.push(
      '--health-cmd',
      check.test.kind === 'shell' ? check.test.command : check.test.argv.map(shellQuote).join(' '),
    );
    if (check.intervalSec !== undefined) args.push('--health-interval', `${check.intervalSec}s`);
    if (check.timeoutSec !== undefined) args.push('--health-timeout', `${check.timeoutSec}s`);
    if (check.retries !== undefined) args.push('--health-retries', String(check.retries));
    if (check.startPeriodSec !== undefined) args.push('--health-start-period', `${check.startPeriodSec}s`);
  }
  args.push('--stop-timeout', String(Math.ceil(service.stopGraceSec)));
  if (service.restart !== undefined) args.push('--restart', service.restart);
  args.push(imageOf(service, ctx), ...(service.command ?? []));
  return args;
}

export function labels(fleet: string, service: string, replica: number): Record<string, string> {
  return { [FLEET_LABEL]: fleet, [ROLE_LABEL]: service, [REPLICA_LABEL]: String(replica) };
}

function imageOf(service: ServiceSpec, ctx: RunContext): string {
  const image = ctx.images.get(service.name);
  if (image === undefined) throw new Error(`no image chosen for ${service.name}`);
  return image;
}

/**
 * The image a service runs: the file's (after interpolation), or its local stand-in
 * (`x-fleet.local-image`) when that exists and the variables of its image expression are unset.
 * A service whose image is not available is skipped when it is optional.
 */
export function chooseImage(
  service: ServiceSpec,
  environment: Variables,
  available: (image: string) => boolean,
): { image: string } | { skipped: string } {
  const standIn = service.fleet.localImage;
  const overridden = service.imageVariables.some((name) => (environment[name] ?? '') !== '');
  if (standIn !== undefined && !overridden && available(standIn)) return { image: standIn };
  if (available(service.image)) return { image: service.image };
  if (service.fleet.optional) return { skipped: `image ${service.image} is not available locally` };
  return { image: service.image };
}

/** Services in an order where each comes after every service it depends on. */
export function startOrder(services: readonly ServiceSpec[]): ServiceSpec[] {
  const ordered: ServiceSpec[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const byName = new Map(services.map((s) => [s.name, s]));
  const visit = (service: ServiceSpec, path: string[]): void => {
    if (state.get(service.name) === 'done') return;
    if (state.get(service.name) === 'visiting')
      throw new FleetInputError(
        `services.${service.name}.depends_on`,
        `a cycle: ${[...path, service.name].join(' -> ')}`,
      );
    state.set(service.name, 'visiting');
    for (const dep of service.dependsOn) {
      const needed = byName.get(dep.service);
      if (needed !== undefined) visit(needed, [...path, service.name]);
    }
    state.set(service.name, 'done');
    ordered.push(service);
  };
  for (const service of services) visit(service, []);
  return ordered;
}

/** Quotes a word for /bin/sh when it holds anything but plain characters. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Container states that count as a worker of the fleet. */
const ALIVE = new Set(['running', 'restarting', 'paused']);

/**
 * How to go from the worker containers there are to `wanted` alive ones: those not alive
 * (killed, exited) are removed and their numbers freed; then the highest alive ones are stopped,
 * or the lowest free numbers started.
 */
export function planScale(
  workers: ReadonlyArray<{ replica: number; state: string }>,
  wanted: number,
): { removeDead: number[]; stop: number[]; start: number[] } {
  const alive = workers.filter((w) => ALIVE.has(w.state)).map((w) => w.replica);
  const removeDead = workers.filter((w) => !ALIVE.has(w.state)).map((w) => w.replica);
  const stop = [...alive].sort((a, b) => b - a).slice(0, Math.max(0, alive.length - wanted));
  const taken = new Set(alive);
  const start: number[] = [];
  for (let n = 1; start.length < wanted - alive.length; n++) if (!taken.has(n)) start.push(n);
  return { removeDead, stop, start };
}

/** What `up` records on the fleet's network, so `scale` starts workers exactly as `up` did. */
export interface FleetSettings {
  file: string;
  /** The services started, in file order (their fixed addresses follow it). */
  services: string[];
  workerImage: string;
  /** The values `up` had of the variables the worker service refers to. */
  variables: Record<string, string>;
}

export function encodeSettings(settings: FleetSettings): string {
  return JSON.stringify(settings);
}

export function decodeSettings(text: string | undefined): FleetSettings | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    const value = JSON.parse(text) as FleetSettings;
    return Array.isArray(value.services) && typeof value.workerImage === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Only the objects whose fleet label is exactly `fleet` (the engine's filter, checked again). */
export function ownedBy<T extends { labels: Readonly<Record<string, string>> | null | undefined }>(
  objects: readonly T[],
  fleet: string,
): T[] {
  return objects.filter((o) => o.labels?.[FLEET_LABEL] === fleet);
}
