import { formulaSizeOf, isCertified, proofOf, solverUsageOf } from '@satfarm/engine';
import { isFinalStatus, type JobHorizonLine, type JobResource } from '@satfarm/queue';

import type { JobMeta, JobState } from './job-record.js';
import { jobBounds } from './job-transitions.js';
import { splitProgress } from './split.js';

/**
 * The job resource of `GET /v1/jobs/:id`: the CLI's report shape (docs/cli.md#solve) plus `id`,
 * `createdAt`, `finishedAt` and `error`. A finished job lists the horizons that ran; a running one
 * shows the queued and running ones too.
 */
export function buildJobResource(
  meta: JobMeta,
  state: JobState,
  now: number,
  render?: unknown,
  secondRender?: unknown,
): JobResource {
  const final = isFinalStatus(state.status);
  const horizons: JobHorizonLine[] = [];
  for (const h of state.sweep.horizons) {
    const open = h.state === 'queued' || h.state === 'running';
    if (final && open) continue;
    const split = state.splits?.[h.t];
    const ms = h.ms ?? (h.state === 'running' && h.startedAt !== undefined ? now - h.startedAt : 0);
    horizons.push({
      t: h.t,
      result: h.state,
      ms: Math.round(ms),
      ...(h.run === undefined ? {} : { runs: h.run }),
      ...(open || state.sizes[h.t]?.rounds === undefined ? {} : { rounds: state.sizes[h.t]!.rounds }),
      ...(h.by === undefined ? {} : { by: h.by }),
      ...(h.state === 'unknown' && h.reason !== undefined ? { reason: h.reason } : {}),
      ...(open || h.by !== undefined
        ? {}
        : { ...formulaSizeOf(state.sizes[h.t]), ...solverUsageOf(state.sizes[h.t]) }),
      ...(open || state.sizes[h.t]?.config === undefined
        ? {}
        : { config: state.sizes[h.t]!.config!, raced: state.sizes[h.t]!.raced ?? [] }),
      ...(h.state === 'unsat' || h.state === 'unknown' ? proofOf(state.sizes[h.t]) : {}),
      // The split of the horizon's last run; an earlier run's split says nothing of this one.
      ...(split === undefined || split.run !== (h.run ?? 1) ? {} : { split: splitProgress(split) }),
    });
  }
  const plan = state.plan;
  const shown = plan !== undefined ? state.sizes[plan.t] : largest(state.sizes);
  const resource: JobResource = {
    id: meta.id,
    ...(meta.batchId === undefined ? {} : { batchId: meta.batchId }),
    game: meta.game,
    ...(meta.summary === undefined ? {} : { summary: meta.summary }),
    status: state.status,
    ...(meta.planning && plan !== undefined ? { horizon: plan.planLength } : {}),
    ...(plan !== undefined ? { solution: plan.solution } : {}),
    verified: plan !== undefined,
    bounds: jobBounds(meta, state),
    ...(meta.boundProof === undefined ? {} : { boundProof: meta.boundProof }),
    horizons,
    stats: {
      vars: shown?.vars ?? 0,
      clauses: shown?.clauses ?? 0,
      solver: state.solver ?? meta.options.solver,
      wallMs: Math.max(0, (state.finishedAt ?? now) - meta.createdAt),
    },
    ...(plan?.unique === undefined ? {} : { unique: plan.unique }),
    ...(plan?.secondSolution === undefined ? {} : { secondSolution: plan.secondSolution }),
    ...(render === undefined ? {} : { render }),
    ...(secondRender === undefined ? {} : { secondRender }),
    ...(meta.options.encoding === undefined ? {} : { encoding: meta.options.encoding }),
    ...(plan?.uniqueProof === undefined ? {} : { uniqueProof: plan.uniqueProof }),
    createdAt: new Date(meta.createdAt).toISOString(),
    finishedAt: state.finishedAt === undefined ? null : new Date(state.finishedAt).toISOString(),
    error: state.error ?? null,
  };
  // Certified only once over, by the same rule as a solve in this process.
  if (meta.options.certify !== undefined) resource.certified = final && isCertified(resource, meta.planning);
  return resource;
}

function largest(sizes: JobState['sizes']): { vars: number; clauses: number } | undefined {
  let best: { vars: number; clauses: number } | undefined;
  for (const size of Object.values(sizes)) if (best === undefined || size.clauses > best.clauses) best = size;
  return best;
}
