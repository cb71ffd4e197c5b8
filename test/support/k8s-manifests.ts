import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

import { repoRoot } from './run-cli.js';

/** One rendered Kubernetes object. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Where each kind's schema and type come from: kubernetes-models and its CRD packages (npm). */
interface SchemaSource {
  module: string;
}

/**
 * The kinds the manifests may use, each with the npm module holding its schema (a compiled JSON
 * schema behind `validate()`) and its TypeScript type `I<Kind>`. Anything else is refused: a
 * kind without a schema is not validated, so it is not allowed in.
 */
const SCHEMAS: Record<string, SchemaSource> = {
  'v1/Namespace': { module: 'kubernetes-models/v1/Namespace' },
  'v1/ConfigMap': { module: 'kubernetes-models/v1/ConfigMap' },
  'v1/Secret': { module: 'kubernetes-models/v1/Secret' },
  'v1/Service': { module: 'kubernetes-models/v1/Service' },
  'v1/ServiceAccount': { module: 'kubernetes-models/v1/ServiceAccount' },
  'apps/v1/Deployment': { module: 'kubernetes-models/apps/v1/Deployment' },
  'apps/v1/StatefulSet': { module: 'kubernetes-models/apps/v1/StatefulSet' },
  'networking.k8s.io/v1/Ingress': { module: 'kubernetes-models/networking.k8s.io/v1/Ingress' },
  'networking.k8s.io/v1/NetworkPolicy': { module: 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy' },
  'policy/v1/PodDisruptionBudget': { module: 'kubernetes-models/policy/v1/PodDisruptionBudget' },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    module: 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
  },
  'keda.sh/v1alpha1/ScaledObject': { module: '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject' },
  'monitoring.coreos.com/v1/ServiceMonitor': {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
  },
};

const run = promisify(execFile);

/** Renders a kustomization directory with kustomize (Debian 13's, installed by the set-up). */
export async function renderKustomization(dir: string): Promise<Manifest[]> {
  const { stdout } = await run('kustomize', ['build', dir], { maxBuffer: 16 * 1024 * 1024 });
  return parseManifests(stdout);
}

/** Renders `k8s/overlays/<name>`. */
export function renderOverlay(name: string): Promise<Manifest[]> {
  return renderKustomization(join(repoRoot, 'k8s/overlays', name));
}

/** Parses a multi-document YAML stream of Kubernetes objects. */
export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

/** `Kind/name` of a manifest, for messages. */
export function manifestId(m: Manifest): string {
  return `${m.kind}/${m.metadata?.name ?? '?'}`;
}

/**
 * Validates each manifest against its kind's schema (types, formats such as quantities, enums,
 * required fields). Returns one message per problem; none means valid.
 */
export async function schemaProblems(manifests: readonly Manifest[]): Promise<string[]> {
  const problems: string[] = [];
  for (const m of manifests) {
    const source = SCHEMAS[`${m.apiVersion}/${m.kind}`];
    if (source === undefined) {
      problems.push(`${manifestId(m)}: no schema for ${m.apiVersion} ${m.kind}`);
      continue;
    }
    const model = (
      (await import(source.module)) as Record<string, new (data: unknown) => { validate(): void }>
    )[m.kind]!;
    try {
      new model(m).validate();
    } catch (err) {
      problems.push(`${manifestId(m)}: ${(err as Error).message}`);
    }
  }
  return problems;
}

/**
 * Finds fields the schemas do not know (a misspelt or misplaced key, which the API server would
 * drop without a word): the JSON schemas allow any extra property, so the manifests are checked
 * as TypeScript object literals against the same packages' types, whose excess-property check
 * reports every unknown key at any depth. Kinds without a schema are left to `schemaProblems`.
 */
export function unknownFieldProblems(manifests: readonly Manifest[]): string[] {
  const file = join(repoRoot, 'test', `.k8s-fields-check-${process.pid}.ts`);
  const known = manifests.filter((m) => SCHEMAS[`${m.apiVersion}/${m.kind}`] !== undefined);
  let text = known
    .map(
      (m, i) =>
        `import type { I${m.kind} as T${i} } from '${SCHEMAS[`${m.apiVersion}/${m.kind}`]!.module}';\n`,
    )
    .join('');
  // The first line of each manifest's literal, to name the manifest a diagnostic falls in.
  const firstLines: number[] = [];
  known.forEach((m, i) => {
    firstLines.push(text.split('\n').length - 1);
    text += `export const m${i}: T${i} = ${JSON.stringify(m, null, 2)};\n`;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, ...rest) => (name === file ? source : getSourceFile(name, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const problems: string[] = [];
  for (const d of [...program.getSemanticDiagnostics(source), ...program.getSyntacticDiagnostics(source)]) {
    const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
    const index = firstLines.findLastIndex((first) => first <= line);
    const where = index < 0 ? 'import' : manifestId(known[index]!);
    problems.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return problems;
}

/** Whether `labels` satisfy a Kubernetes label selector (matchLabels and matchExpressions). */
export function selects(
  selector: {
    matchLabels?: Record<string, string>;
    matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
  },
  labels: Record<string, string> = {},
): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every((e) => {
    const value = labels[e.key];
    switch (e.operator) {
      case 'In':
        return value !== undefined && (e.values ?? []).includes(value);
      case 'NotIn':
        return value === undefined || !(e.values ?? []).includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      default:
        throw new Error(`unknown selector operator ${e.operator}`);
    }
  });
  return byLabel && byExpression;
}

/** A memory quantity ("512Mi", "1Gi", "1G", "1048576") in MiB. */
export function quantityMiB(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity));
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const factor: Record<string, number> = {
    '': 1,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return (Number(match[1]) * factor[match[2] ?? '']!) / 1024 ** 2;
}

/** A CPU quantity ("2", "250m", 1.5) in cores. */
export function quantityCores(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(m)?$/.exec(String(quantity));
  if (!match) throw new Error(`not a CPU quantity: ${quantity}`);
  return Number(match[1]) / (match[2] === 'm' ? 1000 : 1);
}
