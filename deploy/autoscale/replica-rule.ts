/**
 * The replica count a KEDA ScaledObject with a Prometheus trigger (metricType AverageValue) asks
 * of Kubernetes, tick by tick: KEDA's activation, fallback and cooldown, then the
 * HorizontalPodAutoscaler's rule (ceil(metric / target) outside a 10 % tolerance), its
 * stabilization windows and its rate policies, clamped to the min and max replicas.
 * docs/deploy.md#autoscaling says what is modelled and what is not.
 */

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSec: number;
}

export interface ScalingRules {
  stabilizationSec: number;
  policies: ScalingPolicy[];
  select: 'Max' | 'Min' | 'Disabled';
}

export interface ScalingSpec {
  minReplicas: number;
  maxReplicas: number;
  /** The trigger's `threshold`: the metric each replica is meant to carry. */
  target: number;
  /** The trigger's `activationThreshold`: at or below it the workload is idle. */
  activationTarget: number;
  /** KEDA's `pollingInterval`: how often the metric is read. */
  pollingSec: number;
  /** KEDA's `cooldownPeriod`: how long idle before scaling to zero (only with minReplicas 0). */
  cooldownSec: number;
  fallback?: { failureThreshold: number; replicas: number };
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
}

/** The HorizontalPodAutoscaler's own default behaviour, for a ScaledObject that sets none. */
export const HPA_DEFAULT_SCALE_UP: ScalingRules = {
  stabilizationSec: 0,
  policies: [
    { type: 'Percent', value: 100, periodSec: 15 },
    { type: 'Pods', value: 4, periodSec: 15 },
  ],
  select: 'Max',
};
export const HPA_DEFAULT_SCALE_DOWN: ScalingRules = {
  stabilizationSec: 300,
  policies: [{ type: 'Percent', value: 100, periodSec: 15 }],
  select: 'Max',
};

/** The HPA leaves the replicas alone while metric / (target × replicas) is within this of 1. */
export const HPA_TOLERANCE = 0.1;

interface TimedCount {
  atSec: number;
  replicas: number;
}

/** What the autoscaler remembers between ticks. Plain data, so a tick is a pure function. */
export interface ScalerMemory {
  recommendations: TimedCount[];
  /** Replica changes made, signed, for the rate policies. */
  changes: TimedCount[];
  failures: number;
  lastActiveSec: number | null;
}

export const FRESH_MEMORY: ScalerMemory = {
  recommendations: [],
  changes: [],
  failures: 0,
  lastActiveSec: null,
};

export interface Tick {
  atSec: number;
  /** The query's value, or undefined when it failed or returned no series. */
  metric: number | undefined;
  current: number;
}

export interface Decision {
  desired: number;
  /** Why the count is what it is, for the timeline. */
  reason: string;
  memory: ScalerMemory;
}

/** One polling interval: the replica count to scale to, and the memory for the next tick. */
export function decideReplicas(spec: ScalingSpec, memory: ScalerMemory, tick: Tick): Decision {
  const { atSec, current } = tick;
  let metric = tick.metric;
  let failures = 0;
  let reason = 'metric';
  if (metric === undefined || !Number.isFinite(metric)) {
    failures = memory.failures + 1;
    if (!spec.fallback || failures < spec.fallback.failureThreshold) {
      return { desired: current, reason: 'metric unavailable', memory: { ...memory, failures } };
    }
    // KEDA's fallback feeds the HPA the value that asks for exactly the fallback replicas.
    metric = spec.fallback.replicas * spec.target;
    reason = 'fallback';
  }
  const active = metric > spec.activationTarget;
  const lastActiveSec = active ? atSec : memory.lastActiveSec;
  const base = { ...memory, failures, lastActiveSec };

  if (current === 0) {
    const desired = active ? Math.max(spec.minReplicas, 1) : 0;
    return { desired, reason: active ? 'activation' : 'idle', memory: base };
  }
  if (!active && spec.minReplicas === 0) {
    const idleSince = lastActiveSec ?? -Infinity;
    if (atSec - idleSince >= spec.cooldownSec) {
      return { desired: 0, reason: 'cooldown over', memory: { ...base, recommendations: [], changes: [] } };
    }
  }

  const ratio = metric / (spec.target * current);
  const withinTolerance = Math.abs(ratio - 1) <= HPA_TOLERANCE;
  const proposed = withinTolerance ? current : Math.ceil(metric / spec.target);
  if (withinTolerance && reason === 'metric') reason = 'within tolerance';
  const hpaMin = Math.max(spec.minReplicas, 1);

  const horizon = Math.max(spec.scaleUp.stabilizationSec, spec.scaleDown.stabilizationSec);
  const recommendations = [...base.recommendations, { atSec, replicas: proposed }].filter(
    (r) => r.atSec > atSec - horizon - spec.pollingSec,
  );
  const stabilized = stabilize(spec, recommendations, current, atSec);
  if (stabilized !== proposed) reason = stabilized > proposed ? 'scale-down window' : 'scale-up window';

  let low = hpaMin;
  let high = spec.maxReplicas;
  let lowReason = 'min replicas';
  let highReason = 'max replicas';
  if (stabilized > current) {
    const limit = Math.max(scaleUpLimit(spec.scaleUp, base.changes, current, atSec), current);
    if (limit < high) [high, highReason] = [limit, 'scale-up rate'];
  } else if (stabilized < current) {
    const limit = Math.min(scaleDownLimit(spec.scaleDown, base.changes, current, atSec), current);
    if (limit > low) [low, lowReason] = [limit, 'scale-down rate'];
  }
  let desired = stabilized;
  if (desired > high) [desired, reason] = [high, highReason];
  if (desired < low) [desired, reason] = [low, lowReason];

  const keepSince = atSec - Math.max(...allPeriods(spec), 0);
  const changes = base.changes.filter((c) => c.atSec > keepSince);
  if (desired !== current) changes.push({ atSec, replicas: desired - current });
  return { desired, reason, memory: { ...base, recommendations, changes } };
}

/** The HPA's windows: scale up to the least, down to the most, recommended within each. */
function stabilize(spec: ScalingSpec, recs: TimedCount[], current: number, atSec: number): number {
  const latest = recs.at(-1)!.replicas;
  let up = latest;
  let down = latest;
  for (const r of recs) {
    if (r.atSec > atSec - spec.scaleUp.stabilizationSec) up = Math.min(up, r.replicas);
    if (r.atSec > atSec - spec.scaleDown.stabilizationSec) down = Math.max(down, r.replicas);
  }
  let recommendation = current;
  if (recommendation < up) recommendation = up;
  if (recommendation > down) recommendation = down;
  return recommendation;
}

function changedWithin(
  changes: TimedCount[],
  atSec: number,
  periodSec: number,
): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    if (c.atSec <= atSec - periodSec) continue;
    if (c.replicas > 0) added += c.replicas;
    else removed -= c.replicas;
  }
  return { added, removed };
}

function scaleUpLimit(rules: ScalingRules, changes: TimedCount[], current: number, atSec: number): number {
  if (rules.select === 'Disabled') return current;
  const pick = rules.select === 'Min' ? Math.min : Math.max;
  let limit = rules.select === 'Min' ? Infinity : -Infinity;
  for (const p of rules.policies) {
    const { added, removed } = changedWithin(changes, atSec, p.periodSec);
    const start = current - added + removed;
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    limit = pick(limit, proposed);
  }
  return limit;
}

function scaleDownLimit(rules: ScalingRules, changes: TimedCount[], current: number, atSec: number): number {
  if (rules.select === 'Disabled') return current;
  // For scaling down, Max selects the policy allowing the largest change: the lowest count.
  const pick = rules.select === 'Min' ? Math.max : Math.min;
  let limit = rules.select === 'Min' ? -Infinity : Infinity;
  for (const p of rules.policies) {
    const { added, removed } = changedWithin(changes, atSec, p.periodSec);
    const start = current + removed - added;
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    limit = pick(limit, proposed);
  }
  return limit;
}

function allPeriods(spec: ScalingSpec): number[] {
  return [...spec.scaleUp.policies, ...spec.scaleDown.policies].map((p) => p.periodSec);
}
