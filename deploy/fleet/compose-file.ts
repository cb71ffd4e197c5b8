import { resolve } from 'node:path';

import { parse as parseYaml } from 'yaml';

import { interpolateDocument, referencedVariables, type Variables } from './compose-interpolation.js';
import { FleetInputError } from './fleet-errors.js';

/** A service of the compose file, normalised to what the fleet runs. */
export interface ServiceSpec {
  name: string;
  /** The image after interpolation. */
  image: string;
  /** The variables the service refers to. */
  variables: string[];
  /** The variables the image expression names (`${SATFARM_REDIS_IMAGE:-redis:7.2}`). */
  imageVariables: string[];
  /** The file says how to build the image (`build`): it is never pulled. */
  built: boolean;
  /** The fleet's own settings (`x-fleet`), which `docker compose` ignores. */
  fleet: { localImage?: string; optional: boolean };
  command?: string[];
  /** A null value is passed through from the fleet's environment when set there, else left out. */
  environment: Record<string, string | null>;
  volumes: VolumeMount[];
  tmpfs: string[];
  readOnly: boolean;
  ports: PortMapping[];
  healthcheck?: Healthcheck;
  /** Seconds between SIGTERM and SIGKILL on stop (Compose's default: 10). */
  stopGraceSec: number;
  replicas: number;
  dependsOn: Array<{ service: string; condition: DependencyCondition }>;
  restart?: string;
}

export type DependencyCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

export interface VolumeMount {
  /** `volume`: a named volume of the file; `bind`: a path on the host, absolute. */
  kind: 'volume' | 'bind';
  source: string;
  target: string;
  readOnly: boolean;
}

export interface PortMapping {
  hostIp?: string;
  hostPort: number;
  containerPort: number;
  protocol: 'tcp' | 'udp';
}

export interface Healthcheck {
  /** `exec`: an argument vector (Compose's CMD form); `shell`: a command for /bin/sh -c. */
  test: { kind: 'exec'; argv: string[] } | { kind: 'shell'; command: string };
  intervalSec?: number;
  timeoutSec?: number;
  retries?: number;
  startPeriodSec?: number;
}

export interface ComposeModel {
  services: ServiceSpec[];
  /** The named volumes the file declares. */
  volumes: string[];
  /** Every variable the file refers to. */
  variables: string[];
}

/** Parses and interpolates a compose file's text; `dir` resolves its relative bind mounts. */
export function readCompose(text: string, variables: Variables, dir: string): ComposeModel {
  let raw: unknown;
  try {
    raw = parseYaml(text, { merge: true });
  } catch (err) {
    throw new FleetInputError('compose file', `not valid YAML: ${(err as Error).message}`);
  }
  if (!isRecord(raw) || !isRecord(raw.services))
    throw new FleetInputError('compose file', 'expected a mapping with `services`');
  const rawServices = raw.services;
  const doc = interpolateDocument(raw, variables) as { services: Record<string, unknown>; volumes?: unknown };
  const volumes = isRecord(doc.volumes) ? Object.keys(doc.volumes) : [];
  const services = Object.entries(doc.services).map(([name, body]) => {
    const rawService = rawServices[name];
    const rawImage = isRecord(rawService) ? rawService.image : undefined;
    return {
      ...readService(name, body, [...referencedVariables(rawImage)], dir, volumes),
      variables: [...referencedVariables(rawService)].sort(),
    };
  });
  for (const service of services)
    for (const { service: needed } of service.dependsOn)
      if (!services.some((s) => s.name === needed))
        throw new FleetInputError(`services.${service.name}.depends_on`, `no service named ${needed}`);
  return { services, volumes, variables: [...referencedVariables(raw)].sort() };
}

function readService(
  name: string,
  body: unknown,
  imageVariables: string[],
  dir: string,
  declaredVolumes: string[],
): Omit<ServiceSpec, 'variables'> {
  const at = (field: string): string => `services.${name}.${field}`;
  if (!isRecord(body)) throw new FleetInputError(`services.${name}`, 'expected a mapping');
  if (typeof body.image !== 'string' || body.image === '')
    throw new FleetInputError(at('image'), 'required: the fleet runs images, it does not build them');
  const fleet = isRecord(body['x-fleet']) ? body['x-fleet'] : {};
  const deploy = isRecord(body.deploy) ? body.deploy : {};
  const replicas = deploy.replicas ?? 1;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw new FleetInputError(at('deploy.replicas'), 'expected a whole number');
  return {
    name,
    image: body.image,
    imageVariables,
    built: body.build !== undefined,
    fleet: {
      ...(typeof fleet['local-image'] === 'string' ? { localImage: fleet['local-image'] } : {}),
      optional: fleet.optional === true,
    },
    ...(body.command === undefined ? {} : { command: commandVector(body.command, at('command')) }),
    environment: environment(body.environment, at('environment')),
    volumes: asList(body.volumes, at('volumes')).map((v, i) =>
      volumeMount(v, `${at('volumes')}[${i}]`, dir, declaredVolumes),
    ),
    tmpfs: asList(body.tmpfs, at('tmpfs')).map(String),
    readOnly: body.read_only === true,
    ports: asList(body.ports, at('ports')).map((p, i) => portMapping(p, `${at('ports')}[${i}]`)),
    ...(body.healthcheck === undefined ? {} : healthcheck(body.healthcheck, at('healthcheck'))),
    stopGraceSec:
      body.stop_grace_period === undefined
        ? 10
        : durationSeconds(scalar(body.stop_grace_period, at('stop_grace_period')), at('stop_grace_period')),
    replicas,
    dependsOn: dependsOn(body.depends_on, at('depends_on')),
    ...(typeof body.restart === 'string' ? { restart: body.restart } : {}),
  };
}

function commandVector(value: unknown, field: string): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter((word) => word !== '');
  if (Array.isArray(value)) return value.map(String);
  throw new FleetInputError(field, 'expected a string or a list');
}

function environment(value: unknown, field: string): Record<string, string | null> {
  if (value === undefined || value === null) return {};
  if (Array.isArray(value))
    return Object.fromEntries(
      value.map((entry) => {
        const text = String(entry);
        const eq = text.indexOf('=');
        return eq < 0 ? [text, null] : [text.slice(0, eq), text.slice(eq + 1)];
      }),
    );
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        v === null || v === undefined ? null : scalar(v, `${field}.${key}`),
      ]),
    );
  throw new FleetInputError(field, 'expected a mapping or a list');
}

function volumeMount(value: unknown, field: string, dir: string, declared: string[]): VolumeMount {
  let source: string;
  let target: string;
  let readOnly: boolean;
  if (typeof value === 'string') {
    const parts = value.split(':');
    if (parts.length < 2 || parts.length > 3)
      throw new FleetInputError(field, `expected source:target[:ro], got ${value}`);
    [source, target] = [parts[0]!, parts[1]!];
    readOnly = parts[2] === 'ro';
  } else if (isRecord(value) && typeof value.source === 'string' && typeof value.target === 'string') {
    [source, target, readOnly] = [value.source, value.target, value.read_only === true];
  } else throw new FleetInputError(field, 'expected source:target[:ro] or {source, target}');
  if (/^[./~]/.test(source)) {
    const path = source.startsWith('~') ? source.replace(/^~/, process.env.HOME ?? '~') : source;
    return { kind: 'bind', source: resolve(dir, path), target, readOnly };
  }
  if (!declared.includes(source))
    throw new FleetInputError(field, `volume ${source} is not declared under volumes`);
  return { kind: 'volume', source, target, readOnly };
}

function portMapping(value: unknown, field: string): PortMapping {
  if (isRecord(value)) {
    const target = Number(value.target);
    const published = Number(value.published ?? value.target);
    return {
      ...(typeof value.host_ip === 'string' ? { hostIp: value.host_ip } : {}),
      hostPort: port(published, field),
      containerPort: port(target, field),
      protocol: value.protocol === 'udp' ? 'udp' : 'tcp',
    };
  }
  const match = /^(?:(?:\[([^\]]+)\]|([^:]+)):)??(?:(\d+):)?(\d+)(?:\/(tcp|udp))?$/.exec(String(value));
  if (match === null)
    throw new FleetInputError(field, `expected [host_ip:][host_port:]port[/protocol], got ${String(value)}`);
  const [, ip6, ip4, published, target, protocol] = match;
  const hostIp = ip6 ?? ip4;
  return {
    ...(hostIp === undefined ? {} : { hostIp }),
    hostPort: port(Number(published ?? target), field),
    containerPort: port(Number(target), field),
    protocol: protocol === 'udp' ? 'udp' : 'tcp',
  };
}

function port(n: number, field: string): number {
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new FleetInputError(field, `${n} is not a port (1 to 65535)`);
  return n;
}

function healthcheck(value: unknown, field: string): { healthcheck?: Healthcheck } {
  if (!isRecord(value)) throw new FleetInputError(field, 'expected a mapping');
  if (value.disable === true) return {};
  let test: Healthcheck['test'];
  const raw = value.test;
  if (typeof raw === 'string') test = { kind: 'shell', command: raw };
  else if (Array.isArray(raw) && raw.length > 0) {
    const [form, ...rest] = raw.map(String);
    if (form === 'NONE') return {};
    if (form === 'CMD' && rest.length > 0) test = { kind: 'exec', argv: rest };
    else if (form === 'CMD-SHELL' && rest.length === 1) test = { kind: 'shell', command: rest[0]! };
    else throw new FleetInputError(`${field}.test`, 'expected [CMD, arg...], [CMD-SHELL, command] or [NONE]');
  } else throw new FleetInputError(`${field}.test`, 'expected a string or a list');
  const seconds = (key: string): number | undefined =>
    value[key] === undefined
      ? undefined
      : durationSeconds(scalar(value[key], `${field}.${key}`), `${field}.${key}`);
  const retries = value.retries;
  if (retries !== undefined && (typeof retries !== 'number' || !Number.isInteger(retries) || retries < 1))
    throw new FleetInputError(`${field}.retries`, 'expected a whole number of at least 1');
  return {
    healthcheck: {
      test,
      ...optional('intervalSec', seconds('interval')),
      ...optional('timeoutSec', seconds('timeout')),
      ...optional('retries', retries),
      ...optional('startPeriodSec', seconds('start_period')),
    },
  };
}

function dependsOn(value: unknown, field: string): ServiceSpec['dependsOn'] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value))
    return value.map((service) => ({ service: String(service), condition: 'service_started' }));
  if (!isRecord(value)) throw new FleetInputError(field, 'expected a list or a mapping');
  return Object.entries(value).map(([service, spec]) => {
    const condition =
      isRecord(spec) && typeof spec.condition === 'string' ? spec.condition : 'service_started';
    if (!['service_started', 'service_healthy', 'service_completed_successfully'].includes(condition))
      throw new FleetInputError(`${field}.${service}.condition`, `unknown condition ${condition}`);
    return { service, condition: condition as DependencyCondition };
  });
}

/** A Compose duration ("30s", "1m30s", "500ms") in seconds. */
export function durationSeconds(text: string, field: string): number {
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 };
  if (!/^(\d+(\.\d+)?(us|ms|s|m|h))+$/.test(text))
    throw new FleetInputError(field, `expected a duration like 30s or 1m30s, got ${text}`);
  let total = 0;
  for (const [, n, u] of text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)) total += Number(n) * unit[u!]!;
  return total;
}

function asList(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new FleetInputError(field, 'expected a list');
  return value;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** A string, number or boolean value as text; anything else is refused. */
function scalar(value: unknown, field: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new FleetInputError(field, 'expected a string, a number or a boolean');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
