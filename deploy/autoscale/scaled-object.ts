import {
  HPA_DEFAULT_SCALE_DOWN,
  HPA_DEFAULT_SCALE_UP,
  type ScalingPolicy,
  type ScalingRules,
  type ScalingSpec,
} from './replica-rule.js';

/** The fields of a KEDA ScaledObject (keda.sh/v1alpha1) that scaling reads. */
export interface ScaledObjectManifest {
  kind: string;
  spec: {
    minReplicaCount?: number;
    maxReplicaCount?: number;
    pollingInterval?: number;
    cooldownPeriod?: number;
    fallback?: { failureThreshold: number; replicas: number };
    advanced?: {
      horizontalPodAutoscalerConfig?: { behavior?: { scaleUp?: HpaRules; scaleDown?: HpaRules } };
    };
    triggers: {
      type: string;
      metricType?: string;
      metadata: Record<string, string>;
    }[];
  };
}

interface HpaRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: { type: 'Pods' | 'Percent'; value: number; periodSeconds: number }[];
}

/** A ScaledObject's one Prometheus trigger: the query KEDA runs and the scaling it implies. */
export interface PrometheusScaling {
  query: string;
  spec: ScalingSpec;
}

/** KEDA's defaults where the ScaledObject is silent (KEDA 2.17). */
const KEDA_DEFAULTS = { minReplicaCount: 0, maxReplicaCount: 100, pollingInterval: 30, cooldownPeriod: 300 };

export function prometheusScalingOf(manifest: ScaledObjectManifest): PrometheusScaling {
  if (manifest.kind !== 'ScaledObject') throw new Error(`expected a ScaledObject, got ${manifest.kind}`);
  const triggers = manifest.spec.triggers.filter((t) => t.type === 'prometheus');
  if (triggers.length !== 1) throw new Error(`expected one prometheus trigger, found ${triggers.length}`);
  const trigger = triggers[0]!;
  if ((trigger.metricType ?? 'AverageValue') !== 'AverageValue') {
    throw new Error(`triggers[0].metricType: only AverageValue is modelled, got ${trigger.metricType}`);
  }
  const { query, threshold, activationThreshold } = trigger.metadata;
  if (!query) throw new Error('triggers[0].metadata.query: missing');
  const target = Number(threshold);
  if (!(target > 0)) throw new Error(`triggers[0].metadata.threshold: not a positive number: ${threshold}`);
  const s = manifest.spec;
  const behavior = s.advanced?.horizontalPodAutoscalerConfig?.behavior ?? {};
  return {
    query,
    spec: {
      minReplicas: s.minReplicaCount ?? KEDA_DEFAULTS.minReplicaCount,
      maxReplicas: s.maxReplicaCount ?? KEDA_DEFAULTS.maxReplicaCount,
      target,
      activationTarget: Number(activationThreshold ?? 0),
      pollingSec: s.pollingInterval ?? KEDA_DEFAULTS.pollingInterval,
      cooldownSec: s.cooldownPeriod ?? KEDA_DEFAULTS.cooldownPeriod,
      ...(s.fallback ? { fallback: s.fallback } : {}),
      scaleUp: rulesOf(behavior.scaleUp, HPA_DEFAULT_SCALE_UP),
      scaleDown: rulesOf(behavior.scaleDown, HPA_DEFAULT_SCALE_DOWN),
    },
  };
}

function rulesOf(rules: HpaRules | undefined, defaults: ScalingRules): ScalingRules {
  if (!rules) return defaults;
  const policies: ScalingPolicy[] | undefined = rules.policies?.map((p) => ({
    type: p.type,
    value: p.value,
    periodSec: p.periodSeconds,
  }));
  return {
    stabilizationSec: rules.stabilizationWindowSeconds ?? defaults.stabilizationSec,
    policies: policies ?? defaults.policies,
    select: rules.selectPolicy ?? 'Max',
  };
}
