import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { FarmEnvSchema, loadFarmConfig } from '@satfarm/queue';

import {
  type Manifest,
  manifestId,
  quantityCores,
  quantityMiB,
  renderOverlay,
  schemaProblems,
  selects,
  unknownFieldProblems,
} from './support/k8s-manifests.js';
import { promSelectors } from './support/promql-selectors.js';
import { repoRoot } from './support/run-cli.js';

/**
 * The Kubernetes manifests as a cluster would receive them: each overlay rendered by kustomize,
 * every object validated against the Kubernetes schemas (KEDA's and the Prometheus Operator's for
 * their CRDs), then the wiring a working farm depends on.
 */

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: SecretKeyRef } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface SecretKeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
  volumes?: Array<{ name: string; emptyDir?: { sizeLimit?: string } }>;
}
interface Workload extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}
type Selector = Parameters<typeof selects>[0];

const OVERLAYS = ['dev', 'prod'] as const;
const rendered = new Map<string, Manifest[]>();

beforeAll(async () => {
  for (const overlay of OVERLAYS) rendered.set(overlay, await renderOverlay(overlay));
});

const of = (overlay: string): Manifest[] => rendered.get(overlay)!;
const byKind = <T extends Manifest = Manifest>(manifests: Manifest[], kind: string): T[] =>
  manifests.filter((m) => m.kind === kind) as T[];
const named = <T extends Manifest = Manifest>(manifests: Manifest[], kind: string, name: string): T => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name}`);
  return found as T;
};
const workloads = (manifests: Manifest[]): Workload[] =>
  manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'StatefulSet') as Workload[];
/** The workloads whose pods `selector` selects. */
const podsSelected = (manifests: Manifest[], selector: Selector): string[] =>
  workloads(manifests)
    .filter((w) => selects(selector, w.spec.template.metadata.labels))
    .map((w) => w.metadata.name);

/** What the fleet benchmark measured (bench/farm/farm-worker-scaling.bench.ts). */
const measured = (
  JSON.parse(readFileSync(join(repoRoot, 'bench/results/farm-worker-scaling.json'), 'utf8')) as {
    sizing: { workerProcessPeakMiB: number; solverPeakMiB: number; apiProcessPeakMiB: number };
  }
).sizing;

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  it('renders, and every object is valid against its schema, with no field the schema does not know', async () => {
    const manifests = of(overlay);
    expect(manifests.length).toBeGreaterThan(10);
    expect(await schemaProblems(manifests)).toEqual([]);
    expect(unknownFieldProblems(manifests)).toEqual([]);
    for (const m of manifests)
      if (m.kind !== 'Namespace') expect(m.metadata.namespace).toBe(namespaceOf(overlay));
  });

  it('runs the api and the worker from one image, as its two entry points', () => {
    const manifests = of(overlay);
    const api = named<Workload>(manifests, 'Deployment', 'satfarm-api').spec.template.spec.containers[0]!;
    const worker = named<Workload>(manifests, 'Deployment', 'satfarm-worker').spec.template.spec
      .containers[0]!;
    expect(api.image).toBe(worker.image);
    expect([api.args, worker.args]).toEqual([['api'], ['worker']]);
    expect(api.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
  });

  it('configures the farm with variables it knows and values it accepts, from objects that exist', () => {
    const manifests = of(overlay);
    const config = named<Manifest & { data: Record<string, string> }>(
      manifests,
      'ConfigMap',
      'satfarm-config',
    );
    const known = new Set(Object.keys(FarmEnvSchema.shape));
    const secrets = new Set(byKind(manifests, 'Secret').map((s) => s.metadata.name));
    const missingSecrets = new Set<string>();
    for (const w of workloads(manifests).filter((w) => w.metadata.name !== 'satfarm-redis')) {
      for (const c of w.spec.template.spec.containers) {
        for (const e of c.env ?? []) {
          expect(known, `${manifestId(w)} sets ${e.name}`).toContain(e.name);
          const ref = e.valueFrom?.secretKeyRef;
          if (ref && !ref.optional && !secrets.has(ref.name)) missingSecrets.add(ref.name);
        }
        for (const from of c.envFrom ?? []) expect(from.configMapRef?.name).toBe(config.metadata.name);
      }
    }
    for (const name of Object.keys(config.data)) expect(known, `satfarm-config sets ${name}`).toContain(name);
    expect(() => loadFarmConfig({ ...config.data, REDIS_URL: 'redis://redis:6379' })).not.toThrow();
    // dev generates its Redis secret; prod expects it created beforehand (docs/deploy.md).
    expect([...missingSecrets]).toEqual(overlay === 'prod' ? ['satfarm-redis'] : []);
  });

  it('points every Service, Ingress and disruption budget at the pods and ports meant', () => {
    const manifests = of(overlay);
    const services = byKind<
      Manifest & {
        spec: { selector: Record<string, string>; ports: Array<{ name: string; targetPort: string }> };
      }
    >(manifests, 'Service');
    expect(
      services.map((s) => [s.metadata.name, podsSelected(manifests, { matchLabels: s.spec.selector })]),
    ).toEqual([
      ['satfarm-api', ['satfarm-api']],
      ['satfarm-redis', ['satfarm-redis']],
    ]);
    for (const s of services) {
      const pods = workloads(manifests).find((w) =>
        selects({ matchLabels: s.spec.selector }, w.spec.template.metadata.labels),
      )!;
      const portNames = pods.spec.template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const port of s.spec.ports) expect(portNames).toContain(port.targetPort);
    }
    const ingress = named<
      Manifest & {
        spec: {
          rules: Array<{
            http: { paths: Array<{ backend: { service: { name: string; port: { name: string } } } }> };
          }>;
        };
      }
    >(manifests, 'Ingress', 'satfarm-api');
    for (const path of ingress.spec.rules.flatMap((r) => r.http.paths)) {
      const service = named<(typeof services)[number]>(manifests, 'Service', path.backend.service.name);
      expect(service.spec.ports.map((p) => p.name)).toContain(path.backend.service.port.name);
    }
    const budgets = byKind<Manifest & { spec: { selector: Selector } }>(manifests, 'PodDisruptionBudget');
    expect(budgets.map((b) => podsSelected(manifests, b.spec.selector))).toEqual([
      ['satfarm-api'],
      ['satfarm-worker'],
    ]);
  });

  it('lets only the api and the workers reach Redis, and nothing reach the workers', () => {
    const manifests = of(overlay);
    type Policy = Manifest & {
      spec: {
        podSelector: Selector;
        policyTypes: string[];
        ingress?: Array<{ from?: Array<{ podSelector?: Selector }>; ports?: Array<{ port: string }> }>;
      };
    };
    const redis = named<Policy>(manifests, 'NetworkPolicy', 'satfarm-redis');
    expect(podsSelected(manifests, redis.spec.podSelector)).toEqual(['satfarm-redis']);
    expect(redis.spec.policyTypes).toEqual(['Ingress']);
    const peers = redis.spec.ingress!.flatMap((rule) => rule.from ?? []);
    // Every rule names its peers (a rule without `from` would admit every pod).
    expect(redis.spec.ingress!.every((rule) => (rule.from ?? []).length > 0)).toBe(true);
    const admitted = workloads(manifests)
      .filter((w) =>
        peers.some((p) => p.podSelector && selects(p.podSelector, w.spec.template.metadata.labels)),
      )
      .map((w) => w.metadata.name);
    expect(admitted.sort()).toEqual(['satfarm-api', 'satfarm-worker']);
    expect(redis.spec.ingress!.flatMap((r) => r.ports ?? [])).toEqual([{ port: 'redis' }]);

    const worker = named<Policy>(manifests, 'NetworkPolicy', 'satfarm-worker');
    expect(podsSelected(manifests, worker.spec.podSelector)).toEqual(['satfarm-worker']);
    expect([worker.spec.policyTypes, worker.spec.ingress ?? []]).toEqual([['Ingress'], []]);
  });

  it('sizes a worker by its solver slots, from the figures measured', () => {
    const manifests = of(overlay);
    const config = named<Manifest & { data: Record<string, string> }>(
      manifests,
      'ConfigMap',
      'satfarm-config',
    );
    const slots = Number(config.data.SATFARM_WORKER_SLOTS);
    const pod = named<Workload>(manifests, 'Deployment', 'satfarm-worker').spec.template.spec;
    const { requests, limits } = pod.containers[0]!.resources!;
    expect(quantityCores(requests!.cpu!)).toBe(slots);
    expect(quantityMiB(requests!.memory!)).toBeGreaterThanOrEqual(
      measured.workerProcessPeakMiB + slots * measured.solverPeakMiB,
    );
    // The rule docs/deploy.md gives: 256Mi per slot plus 256Mi for the worker process.
    expect(quantityMiB(requests!.memory!)).toBeGreaterThanOrEqual(256 * (slots + 1));
    expect(quantityMiB(limits!.memory!)).toBeGreaterThanOrEqual(quantityMiB(requests!.memory!));
    const api = named<Workload>(manifests, 'Deployment', 'satfarm-api').spec.template.spec.containers[0]!;
    expect(quantityMiB(api.resources!.limits!.memory!)).toBeGreaterThanOrEqual(measured.apiProcessPeakMiB);
    // The drain itself is measured by test/worker-drain.e2e-spec.ts against this grace period.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(10);
  });

  it('runs every container as a non-root user, without privilege escalation, on a read-only root', () => {
    for (const w of workloads(of(overlay))) {
      const pod = w.spec.template.spec;
      expect(pod.securityContext?.runAsNonRoot, manifestId(w)).toBe(true);
      expect(pod.securityContext?.runAsUser, manifestId(w)).toBeGreaterThan(0);
      for (const c of pod.containers) {
        expect(c.securityContext, `${manifestId(w)} ${c.name}`).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
      }
    }
  });
});

describe('the autoscalers', () => {
  type ScaledObject = Manifest & {
    spec: {
      scaleTargetRef: { name: string; kind?: string };
      minReplicaCount: number;
      maxReplicaCount: number;
      fallback?: { failureThreshold: number; replicas: number };
      triggers: Array<{ type: string; metricType?: string; metadata: Record<string, string> }>;
    };
  };

  it('prod scales the workers with KEDA on pending + waiting + prioritized + active horizons, one replica per slots', () => {
    const manifests = of('prod');
    expect(byKind(manifests, 'HorizontalPodAutoscaler')).toEqual([]);
    const [scaled, ...others] = byKind<ScaledObject>(manifests, 'ScaledObject');
    expect(others).toEqual([]);
    expect(scaled!.spec.scaleTargetRef).toEqual({ name: 'satfarm-worker' });
    named(manifests, 'Deployment', 'satfarm-worker');
    expect(scaled!.spec.minReplicaCount).toBeLessThanOrEqual(scaled!.spec.maxReplicaCount);
    expect(scaled!.spec.fallback!.replicas).toBeGreaterThanOrEqual(scaled!.spec.minReplicaCount);
    const [trigger] = scaled!.spec.triggers;
    expect(trigger).toMatchObject({ type: 'prometheus', metricType: 'AverageValue' });
    const selector = promSelectors(trigger!.metadata.query!);
    expect(selector).toEqual([
      {
        metric: 'satfarm_queue_jobs',
        labels: {
          namespace: '="satfarm"',
          queue: '="satfarm-horizons"',
          state: '=~"pending|waiting|prioritized|active"',
        },
      },
    ]);
    const slots = named<Manifest & { data: Record<string, string> }>(manifests, 'ConfigMap', 'satfarm-config')
      .data.SATFARM_WORKER_SLOTS;
    expect(trigger!.metadata.threshold).toBe(slots);
  });

  it('prod has Prometheus scrape the api: the ServiceMonitor selects its Service and names its port', () => {
    const manifests = of('prod');
    const [monitor] = byKind<
      Manifest & { spec: { selector: Selector; endpoints: Array<{ port: string; path: string }> } }
    >(manifests, 'ServiceMonitor');
    const services = byKind<Manifest & { spec: { ports: Array<{ name: string }> } }>(
      manifests,
      'Service',
    ).filter((s) => selects(monitor!.spec.selector, s.metadata.labels));
    expect(services.map((s) => s.metadata.name)).toEqual(['satfarm-api']);
    expect(monitor!.spec.endpoints).toMatchObject([{ port: 'http', path: '/metrics' }]);
    expect(services[0]!.spec.ports.map((p) => p.name)).toContain('http');
  });

  it('dev, without KEDA, falls back to a CPU HorizontalPodAutoscaler on the workers', () => {
    const manifests = of('dev');
    expect(byKind(manifests, 'ScaledObject')).toEqual([]);
    const [hpa, ...others] = byKind<Manifest & { spec: { scaleTargetRef: { kind: string; name: string } } }>(
      manifests,
      'HorizontalPodAutoscaler',
    );
    expect(others).toEqual([]);
    expect(hpa!.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'satfarm-worker' });
  });
});

describe('the manifest checks themselves', () => {
  const deployment = (): Manifest =>
    structuredClone(of('dev').find((m) => m.kind === 'Deployment' && m.metadata.name === 'satfarm-worker')!);

  it('refuse a wrong type, a malformed quantity and a kind without a schema', async () => {
    const wrongType = deployment();
    (wrongType.spec as { replicas: unknown }).replicas = 'two';
    const badQuantity = deployment();
    (badQuantity.spec as Workload['spec']).template.spec.containers[0]!.resources!.requests!.cpu = 'lots';
    const unknownKind: Manifest = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    const problems = await schemaProblems([wrongType, badQuantity, unknownKind]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/replicas must be integer/);
    expect(problems[1]).toMatch(/cpu must match format "quantity"/);
    expect(problems[2]).toMatch(/no schema for example.com\/v1 Widget/);
  });

  it('name a misspelt field at any depth, in a core kind and in a CRD', () => {
    const misspelt = deployment();
    (misspelt.spec as Workload['spec']).template.spec.containers[0]!.securityContext = {
      readOnlyRootFilesystem: true,
      runAsNonroot: true,
    } as never;
    const scaled = structuredClone(of('prod').find((m) => m.kind === 'ScaledObject')!);
    (scaled.spec as Record<string, unknown>).maxReplicas = 3;
    const problems = unknownFieldProblems([misspelt, scaled]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^Deployment\/satfarm-worker: .*'"runAsNonroot"' does not exist/);
    expect(problems[1]).toMatch(/^ScaledObject\/satfarm-worker: .*'"maxReplicas"' does not exist/);
  });
});

function namespaceOf(overlay: string): string {
  return overlay === 'prod' ? 'satfarm' : `satfarm-${overlay}`;
}
