import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { readCompose, type ServiceSpec } from './compose-file.js';
import { FleetInputError } from './fleet-errors.js';
import {
  chooseImage,
  decodeSettings,
  encodeSettings,
  fixedAddress,
  fleetFilter,
  ownedBy,
  planScale,
  runArguments,
  type RunContext,
  shellQuote,
  startOrder,
} from './fleet-plan.js';

const deployDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const composeText = readFileSync(`${deployDir}/compose.yaml`, 'utf8');
const compose = (env: Record<string, string> = {}) => readCompose(composeText, env, deployDir);
const service = (name: string, env: Record<string, string> = {}): ServiceSpec =>
  compose(env).services.find((s) => s.name === name)!;

const ctx = (over: Partial<RunContext> = {}): RunContext => ({
  fleet: 'f1',
  images: new Map(['redis', 'postgres', 'api', 'worker', 'prometheus'].map((s) => [s, `img-${s}`])),
  services: ['redis', 'postgres', 'api', 'worker', 'prometheus'],
  names: { kind: 'hosts', subnet: '10.89.3.0/24' },
  environment: {},
  ...over,
});

/** The values of every occurrence of `flag` in an argument list. */
const values = (args: string[], flag: string): string[] =>
  args.flatMap((arg, i) => (arg === flag ? [args[i + 1]!] : []));

describe('deploy/compose.yaml as the fleet reads it', () => {
  it('has the services of a fleet, Redis first and the api after PostgreSQL', () => {
    expect(startOrder(compose().services).map((s) => s.name)).toEqual([
      'redis',
      'postgres',
      'api',
      'worker',
      'prometheus',
      'grafana',
    ]);
  });

  it('passes SATFARM_API_KEYS through when set, and leaves it out when not (an open api)', () => {
    const api = service('api');
    expect(api.environment.SATFARM_API_KEYS).toBeNull();
    const unset = values(runArguments(api, 1, ctx()), '--env');
    expect(unset.some((e) => e.startsWith('SATFARM_API_KEYS'))).toBe(false);
    const set = values(
      runArguments(api, 1, ctx({ environment: { SATFARM_API_KEYS: 'k'.repeat(16) } })),
      '--env',
    );
    expect(set).toContain(`SATFARM_API_KEYS=${'k'.repeat(16)}`);
  });

  it('gives the api the store of record on the fleet PostgreSQL, with the password of both', () => {
    expect(service('api').environment.SATFARM_DATABASE_URL).toBe(
      'postgres://postgres:satfarm@postgres:5432/satfarm',
    );
    const other = { SATFARM_POSTGRES_PASSWORD: 'p4ss' };
    expect(service('api', other).environment.SATFARM_DATABASE_URL).toBe(
      'postgres://postgres:p4ss@postgres:5432/satfarm',
    );
    expect(service('postgres', other).environment.POSTGRES_PASSWORD).toBe('p4ss');
  });

  it('runs health checks as one shell command, an exec form quoted exactly', () => {
    const api = runArguments(service('api'), 1, ctx());
    const [check] = values(api, '--health-cmd');
    expect(check).toMatch(/^node -e "fetch\('http:\/\/127\.0\.0\.1:3000\/health'\)/);
    expect(values(api, '--health-interval')).toEqual(['5s']);
    expect(values(api, '--health-retries')).toEqual(['10']);
    expect(values(runArguments(service('redis'), 1, ctx()), '--health-cmd')).toEqual(['redis-cli ping']);
    expect(shellQuote("it's a test")).toBe(`'it'\\''s a test'`);
  });

  it('labels every container with its fleet, role and replica, names it, and stops a worker after its grace period', () => {
    const args = runArguments(service('worker'), 3, ctx());
    expect(values(args, '--name')).toEqual(['f1-worker-3']);
    expect(values(args, '--label')).toEqual(['satfarm.fleet=f1', 'satfarm.role=worker', 'satfarm.replica=3']);
    expect(values(args, '--stop-timeout')).toEqual(['30']);
    expect(values(args, '--network')).toEqual(['f1_default']);
    expect(args.slice(-2)).toEqual(['img-worker', 'worker']);
    expect(args).toContain('--read-only');
    expect(values(args, '--tmpfs')).toEqual(['/tmp']);
    expect(values(args, '--restart')).toEqual(['unless-stopped']);
  });

  it("mounts the fleet's own volumes and the repository's Prometheus files, and publishes on loopback", () => {
    const prometheus = runArguments(service('prometheus', { SATFARM_PROMETHEUS_PORT: '19090' }), 1, ctx());
    expect(values(prometheus, '--volume')).toEqual([
      `${deployDir}/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro`,
      `${deployDir}/prometheus/rules.yml:/etc/prometheus/rules.yml:ro`,
      'f1_prometheus-data:/prometheus',
    ]);
    expect(values(prometheus, '--publish')).toEqual(['127.0.0.1:19090:9090']);
    expect(values(runArguments(service('api', { SATFARM_PORT: '3310' }), 1, ctx()), '--publish')).toEqual([
      '127.0.0.1:3310:3000',
    ]);
    expect(values(runArguments(service('redis'), 1, ctx()), '--volume')).toEqual(['f1_redis-data:/data']);
  });

  it('resolves service names by DNS aliases where the network has DNS, else by fixed addresses in /etc/hosts', () => {
    const dns = runArguments(service('api'), 1, ctx({ names: { kind: 'dns' } }));
    expect(values(dns, '--network-alias')).toEqual(['api']);
    expect(values(dns, '--ip')).toEqual([]);
    const hosts = runArguments(service('worker'), 2, ctx());
    expect(values(hosts, '--ip')).toEqual(['10.89.3.102']);
    expect(values(hosts, '--add-host')).toEqual([
      'redis:10.89.3.10',
      'postgres:10.89.3.11',
      'api:10.89.3.12',
      'prometheus:10.89.3.13',
    ]);
    expect(() => fixedAddress('10.89.3.0/28', ['redis'], 'redis', 1)).toThrow(/24/);
  });
});

describe('images', () => {
  const local =
    (...images: string[]) =>
    (image: string) =>
      images.includes(image);

  it('takes the local stand-in when it exists and the image variable is unset', () => {
    const redis = service('redis');
    expect(chooseImage(redis, {}, local('localhost/satfarm-redis:trixie'))).toEqual({
      image: 'localhost/satfarm-redis:trixie',
    });
    expect(chooseImage(redis, {}, local())).toEqual({ image: 'redis:7.2' });
    const chosen = { SATFARM_REDIS_IMAGE: 'valkey:8' };
    expect(chooseImage(service('redis', chosen), chosen, local('localhost/satfarm-redis:trixie'))).toEqual({
      image: 'valkey:8',
    });
    expect(chooseImage(service('api', { SATFARM_IMAGE: 'satfarm:1.2' }), {}, local())).toEqual({
      image: 'satfarm:1.2',
    });
  });

  it('skips an optional service whose image is not available, never a required one', () => {
    expect(chooseImage(service('grafana'), {}, local())).toEqual({
      skipped: 'image grafana/grafana:12.1.0 is not available locally',
    });
    expect(chooseImage(service('grafana'), {}, local('grafana/grafana:12.1.0'))).toEqual({
      image: 'grafana/grafana:12.1.0',
    });
    expect(chooseImage(service('postgres'), {}, local())).toEqual({ image: 'postgres:17' });
  });
});

describe('scaling and selection', () => {
  const up = (...replicas: number[]) => replicas.map((replica) => ({ replica, state: 'running' }));
  it('starts the lowest free replicas and stops the highest', () => {
    expect(planScale(up(1, 2), 4)).toEqual({ removeDead: [], stop: [], start: [3, 4] });
    expect(planScale(up(2, 5), 4)).toEqual({ removeDead: [], stop: [], start: [1, 3] });
    expect(planScale(up(1, 2), 2)).toEqual({ removeDead: [], stop: [], start: [] });
    expect(planScale(up(1, 3, 2), 1)).toEqual({ removeDead: [], stop: [3, 2], start: [] });
    expect(planScale(up(1, 2), 0)).toEqual({ removeDead: [], stop: [2, 1], start: [] });
  });

  it('replaces a worker that is not alive, reusing its number', () => {
    const workers = [...up(2), { replica: 1, state: 'exited' }, { replica: 3, state: 'restarting' }];
    expect(planScale(workers, 3)).toEqual({ removeDead: [1], stop: [], start: [1] });
    expect(planScale(workers, 1)).toEqual({ removeDead: [1], stop: [3], start: [] });
    expect(planScale([{ replica: 1, state: 'exited' }], 1)).toEqual({
      removeDead: [1],
      stop: [],
      start: [1],
    });
  });

  it("selects exactly one fleet's objects by its label", () => {
    expect(fleetFilter('f1')).toBe('label=satfarm.fleet=f1');
    const objects: Array<{ name: string; labels: Record<string, string> | null }> = [
      { name: 'a', labels: { 'satfarm.fleet': 'f1' } },
      { name: 'b', labels: { 'satfarm.fleet': 'f10' } },
      { name: 'c', labels: { 'satfarm.fleet': 'F1' } },
      { name: 'd', labels: {} },
      { name: 'e', labels: null },
    ];
    expect(ownedBy(objects, 'f1').map((o) => o.name)).toEqual(['a']);
  });

  it('keeps the settings of up for scale', () => {
    const settings = {
      file: '/x/compose.yaml',
      services: ['redis', 'worker'],
      workerImage: 'w',
      variables: { A: '1' },
    };
    expect(decodeSettings(encodeSettings(settings))).toEqual(settings);
    expect(decodeSettings('{"services": 1}')).toBeUndefined();
    expect(decodeSettings('not json')).toBeUndefined();
  });
});

describe('compose files the fleet refuses', () => {
  const read = (text: string) => () => readCompose(text, {}, '/d');
  it('names the field', () => {
    expect(read('services:\n  a:\n    command: x\n')).toThrow(/services\.a\.image/);
    expect(read('services:\n  a:\n    image: i\n    volumes: [data:/d]\n')).toThrow(/not declared/);
    expect(read('services:\n  a:\n    image: i\n    depends_on: [b]\n')).toThrow(/no service named b/);
    expect(read('services:\n  a:\n    image: i\n    stop_grace_period: soon\n')).toThrow(
      /services\.a\.stop_grace_period/,
    );
    expect(read('services:\n  a:\n    image: i\n    ports: ["70000:1"]\n')).toThrow(FleetInputError);
    const cycle = readCompose(
      'services:\n  a:\n    image: i\n    depends_on: [b]\n  b:\n    image: i\n    depends_on: [a]\n',
      {},
      '/d',
    );
    expect(() => startOrder(cycle.services)).toThrow(/a cycle/);
  });
});
