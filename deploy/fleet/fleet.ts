import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

import { readCompose, type ComposeModel, type ServiceSpec } from './compose-file.js';
import type { Variables } from './compose-interpolation.js';
import type { ContainerEngine, ContainerInfo } from './container-engine.js';
import { FleetInputError, FleetUnhealthyError } from './fleet-errors.js';
import {
  chooseImage,
  containerName,
  decodeSettings,
  encodeSettings,
  FLEET_LABEL,
  fleetFilter,
  type FleetSettings,
  type NameResolution,
  networkName,
  ownedBy,
  planScale,
  REPLICA_LABEL,
  ROLE_LABEL,
  runArguments,
  SETTINGS_LABEL,
  startOrder,
  volumeName,
  WORKER_SERVICE,
} from './fleet-plan.js';

export interface FleetIo {
  engine: ContainerEngine;
  env: Variables;
  /** Progress and the final lines for people. */
  say: (line: string) => void;
}

function loadCompose(file: string, variables: Variables): ComposeModel {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new FleetInputError(
      '--file',
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  const model = readCompose(text, variables, dirname(resolve(file)));
  if (!model.services.some((s) => s.name === WORKER_SERVICE))
    throw new FleetInputError('--file', `${file} has no ${WORKER_SERVICE} service`);
  return model;
}

/** Services to run and the image of each; the others skipped, with the reason. */
async function planImages(model: ComposeModel, io: FleetIo) {
  const known = new Map<string, boolean>();
  for (const s of model.services)
    for (const image of [s.image, s.fleet.localImage])
      if (image !== undefined && !known.has(image)) known.set(image, await io.engine.imageExists(image));
  const images = new Map<string, string>();
  const skipped: Array<{ service: string; reason: string }> = [];
  for (const service of model.services) {
    const choice = chooseImage(service, io.env, (image) => known.get(image) === true);
    if ('skipped' in choice) skipped.push({ service: service.name, reason: choice.skipped });
    else images.set(service.name, choice.image);
  }
  return { images, skipped, available: (image: string) => known.get(image) === true };
}

export async function up(
  options: { name: string; file: string; workers?: number; port?: number; timeoutSec: number },
  io: FleetIo,
): Promise<void> {
  const started = Date.now();
  const { engine } = io;
  const variables: Variables = {
    ...io.env,
    ...(options.port === undefined ? {} : { SATFARM_PORT: String(options.port) }),
  };
  const model = loadCompose(options.file, variables);
  const { images, skipped, available } = await planImages(model, { ...io, env: variables });
  const services = model.services.filter((s) => images.has(s.name));

  // Everything is checked before anything is made.
  if (
    (await engine.containers(fleetFilter(options.name))).length > 0 ||
    (await engine.names('network', fleetFilter(options.name))).length > 0
  )
    throw new FleetInputError(
      '--name',
      `a fleet named ${options.name} is already up (npm run fleet -- status, or down)`,
    );
  for (const service of services) {
    const image = images.get(service.name)!;
    if (!available(image) && service.built)
      throw new FleetInputError(
        `services.${service.name}.image`,
        `image ${image} is not built: npm run image builds it`,
      );
  }
  for (const service of services)
    for (const p of service.ports) {
      const field =
        service.name === 'api' && options.port !== undefined ? '--port' : `services.${service.name}.ports`;
      await checkPortFree(p.hostPort, field);
    }
  for (const service of services) {
    const image = images.get(service.name)!;
    if (available(image)) continue;
    io.say(`pulling ${image} for ${service.name}`);
    const pulled = await engine.attempt(['pull', image]);
    if (pulled.code !== 0)
      throw new FleetInputError(
        `services.${service.name}.image`,
        `image ${image} is neither available locally nor pulled: ${pulled.stderr.trim().split('\n').at(-1) ?? ''}`,
      );
  }
  const volumes = [
    ...new Set(services.flatMap((s) => s.volumes.filter((v) => v.kind === 'volume').map((v) => v.source))),
  ];
  for (const volume of volumes) {
    const existing = await engine.labelsOf('volume', volumeName(options.name, volume));
    if (existing !== undefined && existing[FLEET_LABEL] !== options.name)
      throw new FleetInputError(
        '--name',
        `volume ${volumeName(options.name, volume)} exists and is not fleet ${options.name}'s`,
      );
  }

  const worker = services.find((s) => s.name === WORKER_SERVICE);
  if (worker === undefined) throw new FleetInputError(`services.${WORKER_SERVICE}.image`, 'not available');
  const settings: FleetSettings = {
    file: resolve(options.file),
    services: services.map((s) => s.name),
    workerImage: images.get(WORKER_SERVICE)!,
    variables: Object.fromEntries(
      worker.variables.flatMap((name) => (variables[name] === undefined ? [] : [[name, variables[name]]])),
    ),
  };
  const network = networkName(options.name);
  await engine.run([
    'network',
    'create',
    '--label',
    `${FLEET_LABEL}=${options.name}`,
    '--label',
    `${SETTINGS_LABEL}=${encodeSettings(settings)}`,
    network,
  ]);
  for (const volume of volumes)
    if ((await engine.labelsOf('volume', volumeName(options.name, volume))) === undefined)
      await engine.run([
        'volume',
        'create',
        '--label',
        `${FLEET_LABEL}=${options.name}`,
        volumeName(options.name, volume),
      ]);
  const names = await nameResolution(engine, network);
  const ctx = { fleet: options.name, images, services: settings.services, names, environment: variables };

  const deadline = started + options.timeoutSec * 1000;
  const healthy = new Map<string, Promise<void>>();
  const waitFor = (service: ServiceSpec): Promise<void> => {
    let waiting = healthy.get(service.name);
    if (waiting === undefined) {
      waiting = Promise.all(
        replicasOf(service, options.workers).map((n) =>
          waitHealthy(
            engine,
            containerName(options.name, service.name, n),
            service,
            deadline,
            options.timeoutSec,
          ),
        ),
      ).then(() => undefined);
      healthy.set(service.name, waiting);
    }
    return waiting;
  };
  for (const service of startOrder(services)) {
    for (const dep of service.dependsOn) {
      const needed = services.find((s) => s.name === dep.service);
      if (needed === undefined)
        throw new FleetInputError(
          `services.${service.name}.depends_on`,
          `${dep.service} is not started (${skipped.find((s) => s.service === dep.service)?.reason ?? 'skipped'})`,
        );
      if (dep.condition === 'service_healthy') await waitFor(needed);
    }
    await Promise.all(
      replicasOf(service, options.workers).map((n) => engine.run(runArguments(service, n, ctx))),
    );
    io.say(
      `started ${service.name}${service.name === WORKER_SERVICE ? ` x${replicasOf(service, options.workers).length}` : ''}`,
    );
  }
  await Promise.all(services.filter((s) => s.healthcheck !== undefined).map(waitFor));
  for (const s of skipped) io.say(`skipped ${s.service}: ${s.reason}`);
  const api = services.find((s) => s.name === 'api')?.ports[0];
  io.say(
    `fleet ${options.name} is up in ${((Date.now() - started) / 1000).toFixed(1)} s${api === undefined ? '' : `: api http://127.0.0.1:${api.hostPort}`}`,
  );
}

function replicasOf(service: ServiceSpec, workers: number | undefined): number[] {
  const count =
    service.name === WORKER_SERVICE ? (workers ?? service.replicas) : Math.max(1, service.replicas);
  return Array.from({ length: count }, (_, i) => i + 1);
}

async function nameResolution(engine: ContainerEngine, network: string): Promise<NameResolution> {
  const { subnet, dns } = await engine.networkAddressing(network);
  return dns ? { kind: 'dns' } : { kind: 'hosts', subnet };
}

/** Waits until a container's health check passes, or fails naming it at the deadline. */
async function waitHealthy(
  engine: ContainerEngine,
  container: string,
  service: ServiceSpec,
  deadline: number,
  timeoutSec: number,
): Promise<void> {
  if (service.healthcheck === undefined) return;
  const pause = Math.min(1, service.healthcheck.intervalSec ?? 1) * 1000;
  for (;;) {
    const check = await engine.checkHealth(container);
    if (check.healthy) return;
    const last = check.output;
    if (Date.now() + pause > deadline) {
      const logs = await engine.logsTail(container);
      throw new FleetUnhealthyError(
        `${container} is not healthy after ${timeoutSec} s (--timeout); last check: ${last || 'no output'}\n` +
          `its last log lines:\n${logs}\nthe fleet is left as it is: npm run fleet -- status, or down`,
      );
    }
    // Health checks are commands run in the container: there is no event to wait on.
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** Fails naming `field` when something listens on 127.0.0.1:port. */
export function checkPortFree(port: number, field: string): Promise<void> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new FleetInputError(field, `port ${port} on 127.0.0.1 is in use; nothing was started`)
          : err,
      ),
    );
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolvePort()));
  });
}

async function fleetSettings(name: string, io: FleetIo): Promise<FleetSettings> {
  const [network] = await io.engine.names('network', fleetFilter(name));
  const containers = await io.engine.containers(fleetFilter(name));
  if (network === undefined || containers.length === 0)
    throw new FleetInputError('--name', `no fleet named ${name} is up (npm run fleet -- up)`);
  const settings = decodeSettings((await io.engine.labelsOf('network', network))?.[SETTINGS_LABEL]);
  if (settings === undefined)
    throw new FleetInputError('--name', `fleet ${name}'s network carries no settings: down and up again`);
  return settings;
}

export async function scale(options: { name: string; workers: number }, io: FleetIo): Promise<void> {
  const started = Date.now();
  const settings = await fleetSettings(options.name, io);
  const workers = ownedBy(await io.engine.containers(fleetFilter(options.name)), options.name).filter(
    (c) => c.labels[ROLE_LABEL] === WORKER_SERVICE,
  );
  const variables: Variables = { ...settings.variables };
  const model = loadCompose(settings.file, variables);
  const worker = model.services.find((s) => s.name === WORKER_SERVICE)!;
  const plan = planScale(
    workers.map((c) => ({ replica: Number(c.labels[REPLICA_LABEL]), state: c.state })),
    options.workers,
  );
  const dead = workers.filter((c) => plan.removeDead.includes(Number(c.labels[REPLICA_LABEL])));
  if (dead.length > 0) {
    await io.engine.run(['rm', '--force', ...dead.map((c) => c.id)]);
    io.say(`removed ${dead.map((c) => `${c.name} (${c.state})`).join(', ')}`);
  }
  const [remove, add] = [plan.stop, plan.start];
  if (remove.length > 0) {
    const names = remove.map((n) => containerName(options.name, WORKER_SERVICE, n));
    // SIGTERM, then the compose file's stop_grace_period for the worker to drain, then SIGKILL.
    await io.engine.run(
      ['stop', '--time', String(Math.ceil(worker.stopGraceSec)), ...names],
      (worker.stopGraceSec + 60) * 1000,
    );
    for (const name of names) {
      const drained = /drained in .*/.exec(await io.engine.logsTail(name, 5))?.[0];
      io.say(`stopped ${name}${drained === undefined ? '' : `: ${drained}`}`);
    }
    await io.engine.run(['rm', ...names]);
  }
  if (add.length > 0) {
    const network = networkName(options.name);
    const ctx = {
      fleet: options.name,
      images: new Map([[WORKER_SERVICE, settings.workerImage]]),
      services: settings.services,
      names: await nameResolution(io.engine, network),
      environment: { ...io.env, ...variables },
    };
    await Promise.all(add.map((n) => io.engine.run(runArguments(worker, n, ctx))));
    io.say(`started ${add.map((n) => containerName(options.name, WORKER_SERVICE, n)).join(', ')}`);
  }
  io.say(
    `fleet ${options.name}: ${options.workers} workers (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

export interface FleetStatus {
  fleet: string;
  up: boolean;
  api?: string;
  prometheus?: string;
  containers: Array<{
    name: string;
    role: string;
    replica: number;
    state: string;
    health: string;
    restarts: number;
  }>;
  skipped: Array<{ service: string; reason: string }>;
  network?: string;
  volumes: string[];
}

export async function status(options: { name: string; file: string }, io: FleetIo): Promise<FleetStatus> {
  const { engine } = io;
  const listed = ownedBy(await engine.containers(fleetFilter(options.name)), options.name);
  // Each check run now, where no daemon runs them (Podman without systemd); the state read after
  // it counts its retries, so a service still starting shows `starting`, not `unhealthy`.
  await Promise.all(
    listed.filter((c) => c.state === 'running' && c.health !== '').map((c) => engine.checkHealth(c.name)),
  );
  const containers = ownedBy(await engine.containers(fleetFilter(options.name)), options.name);
  const [network] = await engine.names('network', fleetFilter(options.name));
  const volumes = await engine.names('volume', fleetFilter(options.name));
  const settings =
    network === undefined
      ? undefined
      : decodeSettings((await engine.labelsOf('network', network))?.[SETTINGS_LABEL]);
  const order = settings?.services ?? [];
  const rows = containers.map((c) => ({
    name: c.name,
    role: c.labels[ROLE_LABEL] ?? '',
    replica: Number(c.labels[REPLICA_LABEL] ?? 0),
    state: c.state,
    health: c.health,
    restarts: c.restarts,
  }));
  rows.sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || a.replica - b.replica);
  const skipped: FleetStatus['skipped'] = [];
  if (settings !== undefined) {
    const model = loadCompose(settings.file, { ...io.env, ...settings.variables });
    for (const s of model.services)
      if (!settings.services.includes(s.name))
        skipped.push({
          service: s.name,
          reason: s.fleet.optional ? `optional, image ${s.image} not available locally at up` : 'not started',
        });
  }
  const url = (role: string, port: string) => {
    const bound = containers.find((c) => c.labels[ROLE_LABEL] === role)?.published[port];
    return bound === undefined ? undefined : `http://${bound}`;
  };
  const api = url('api', '3000/tcp');
  const prometheus = url('prometheus', '9090/tcp');
  return {
    fleet: options.name,
    up: containers.length > 0,
    ...(api === undefined ? {} : { api }),
    ...(prometheus === undefined ? {} : { prometheus }),
    containers: rows,
    skipped,
    ...(network === undefined ? {} : { network }),
    volumes,
  };
}

export function formatStatus(s: FleetStatus): string {
  if (!s.up)
    return `fleet ${s.fleet}: not up${s.volumes.length > 0 ? ` (volumes kept: ${s.volumes.join(', ')})` : ''}`;
  const header = ['CONTAINER', 'ROLE', 'STATE', 'HEALTH', 'RESTARTS'];
  const rows = s.containers.map((c) => [c.name, c.role, c.state, c.health || '-', String(c.restarts)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    `fleet ${s.fleet}`,
    line(header),
    ...rows.map(line),
    ...s.skipped.map((k) => `skipped ${k.service}: ${k.reason}`),
    ...(s.api === undefined ? [] : [`api:        ${s.api}`]),
    ...(s.prometheus === undefined ? [] : [`prometheus: ${s.prometheus}`]),
    `network ${s.network ?? '-'}; volumes ${s.volumes.join(', ') || '-'}`,
  ].join('\n');
}

/** True when every container runs and every health check passes. */
export const allHealthy = (s: FleetStatus): boolean =>
  s.up && s.containers.every((c) => c.state === 'running' && (c.health === '' || c.health === 'healthy'));

export async function down(options: { name: string; volumes: boolean }, io: FleetIo): Promise<void> {
  const started = Date.now();
  const { engine } = io;
  const filter = fleetFilter(options.name);
  const containers = ownedBy(await engine.containers(filter), options.name);
  const [network] = await engine.names('network', filter);
  const settings =
    network === undefined
      ? undefined
      : decodeSettings((await engine.labelsOf('network', network))?.[SETTINGS_LABEL]);
  // The reverse of the start order: workers drain while Redis is still there.
  const order =
    settings?.services ?? ['prometheus', 'grafana', WORKER_SERVICE, 'api', 'postgres', 'redis'].reverse();
  const stages = new Map<number, ContainerInfo[]>();
  for (const c of containers) {
    const rank = order.indexOf(c.labels[ROLE_LABEL] ?? '');
    stages.set(rank, [...(stages.get(rank) ?? []), c]);
  }
  for (const rank of [...stages.keys()].sort((a, b) => b - a)) {
    const ids = stages
      .get(rank)!
      .filter((c) => c.state === 'running' || c.state === 'restarting')
      .map((c) => c.id);
    // Each container's own stop timeout (the compose file's stop_grace_period) applies.
    if (ids.length > 0) await engine.attempt(['stop', ...ids], 600_000);
  }
  if (containers.length > 0) await engine.run(['rm', '--force', ...containers.map((c) => c.id)]);
  const networks = await engine.names('network', filter);
  for (const n of networks)
    if ((await engine.labelsOf('network', n))?.[FLEET_LABEL] === options.name)
      await engine.run(['network', 'rm', n]);
  const volumes: string[] = [];
  if (options.volumes)
    for (const v of await engine.names('volume', filter))
      if ((await engine.labelsOf('volume', v))?.[FLEET_LABEL] === options.name) {
        await engine.run(['volume', 'rm', v]);
        volumes.push(v);
      }
  const kept = options.volumes ? [] : await engine.names('volume', filter);
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const keptNote = kept.length > 0 ? `; volumes kept: ${kept.join(', ')} (down --volumes removes them)` : '';
  io.say(
    containers.length === 0 && networks.length === 0 && volumes.length === 0
      ? `fleet ${options.name}: nothing to remove${keptNote}`
      : `fleet ${options.name} removed in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
          `${count(containers.length, 'container')}, ${count(networks.length, 'network')}, ` +
          `${count(volumes.length, 'volume')}${keptNote}`,
  );
}
