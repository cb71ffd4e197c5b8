import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { decideReplicas, FRESH_MEMORY, type ScalerMemory, type ScalingSpec } from './replica-rule.js';
import { prometheusScalingOf, type ScaledObjectManifest } from './scaled-object.js';

const manifest = parse(
  readFileSync(new URL('../../k8s/components/keda/scaled-object.yaml', import.meta.url), 'utf8'),
) as ScaledObjectManifest;
const { query, spec } = prometheusScalingOf(manifest);

/** Runs ticks of (metric, replicas the cluster has) and returns each decision's count. */
function replay(
  s: ScalingSpec,
  metrics: (number | undefined)[],
  start = 1,
): { desired: number[]; reasons: string[] } {
  let memory: ScalerMemory = FRESH_MEMORY;
  let current = start;
  const desired: number[] = [];
  const reasons: string[] = [];
  metrics.forEach((metric, i) => {
    const d = decideReplicas(s, memory, { atSec: i * s.pollingSec, metric, current });
    memory = d.memory;
    current = d.desired;
    desired.push(d.desired);
    reasons.push(d.reason);
  });
  return { desired, reasons };
}

describe('the ScaledObject in k8s/components/keda, read as KEDA reads it', () => {
  it('queries the horizon queue depth with two slots a replica, 1 to 10 replicas every 15 s', () => {
    expect(query).toContain('satfarm_queue_jobs');
    expect(spec).toMatchObject({
      minReplicas: 1,
      maxReplicas: 10,
      target: 2,
      pollingSec: 15,
      cooldownSec: 300,
    });
    expect(spec.fallback).toEqual({ failureThreshold: 3, replicas: 2 });
  });

  it('scales up by the larger of doubling and 4 pods per 30 s, up to ceil(metric / threshold)', () => {
    // 40 horizons at 2 a replica want 20, capped at 10; 1 → 5 (1 + 4), held for 30 s, then 10.
    expect(replay(spec, [40, 40, 40, 40]).desired).toEqual([5, 5, 10, 10]);
    expect(replay(spec, [7, 7, 7]).desired).toEqual([4, 4, 4]);
  });

  it('leaves the count alone within 10 % of the target per replica', () => {
    expect(replay(spec, [4.3], 2)).toEqual({ desired: [2], reasons: ['within tolerance'] });
    expect(replay(spec, [4.5], 2).desired).toEqual([3]);
  });

  it('scales down only after 5 minutes of lower demand, one pod a minute, never below the minimum', () => {
    const ticksPerMinute = 60 / spec.pollingSec;
    const metrics = [20, ...Array<number>(12 * ticksPerMinute).fill(0)];
    const { desired } = replay(spec, metrics, 10);
    const atMinute = (m: number): number => desired[m * ticksPerMinute]!;
    expect(desired[0]).toBe(10);
    expect(Math.min(...desired.slice(0, 5 * ticksPerMinute))).toBe(10);
    // The window has forgotten the 20 five minutes on; from then on one pod goes each minute.
    expect([4, 5, 6, 7, 8].map(atMinute)).toEqual([10, 9, 8, 7, 6]);
    expect(replay(spec, [20, ...Array<number>(20 * ticksPerMinute).fill(0)], 10).desired.at(-1)).toBe(
      spec.minReplicas,
    );
  });

  it('holds the count while the metric is unreadable, then the fallback after 3 failures', () => {
    expect(replay(spec, [undefined, undefined], 5).desired).toEqual([5, 5]);
    const { desired, reasons } = replay(spec, [undefined, undefined, undefined], 1);
    expect(desired).toEqual([1, 1, 2]);
    expect(reasons[2]).toBe('fallback');
  });

  it('scales to zero only when the minimum is zero, after the cooldown from the last activity', () => {
    const toZero: ScalingSpec = { ...spec, minReplicas: 0, cooldownSec: 60 };
    const { desired } = replay(toZero, [3, 0, 0, 0, 0, 0, 0]);
    expect(desired.indexOf(0)).toBe(4);
    expect(replay(toZero, [0, 0, 5], 0).desired).toEqual([0, 0, 1]);
    expect(replay(spec, Array<number>(40).fill(0)).desired.every((d) => d === 1)).toBe(true);
  });

  it('refuses a ScaledObject it cannot model, naming the field', () => {
    const bad = structuredClone(manifest);
    bad.spec.triggers[0]!.metadata.threshold = 'two';
    expect(() => prometheusScalingOf(bad)).toThrow(/threshold/);
    bad.spec.triggers[0]!.metricType = 'Value';
    expect(() => prometheusScalingOf(bad)).toThrow(/metricType/);
  });
});
