import { MAX_PRIORITY } from './job-request.schema.js';

/**
 * The pass a tenant advances by per horizon released at weight 1 (docs/farm.md, "Fair share").
 * Passes only compare with each other, so the unit is arbitrary; a large one keeps the steps of
 * high weights far above floating-point rounding.
 */
export const STRIDE = 1_000_000;

/** Priority points that double a tenant's share of the releases. */
export const PRIORITY_DOUBLING = 10;

/**
 * The share weight of a horizon of a job with `priority` (0..100): every ten points double it, so
 * two tenants' shares depend only on the difference of their priorities (equal: even shares;
 * 10 apart: 2 to 1; 100 apart: 1024 to 1).
 */
export function shareWeight(priority: number): number {
  return 2 ** (priority / PRIORITY_DOUBLING);
}

/** How far a tenant's pass moves when one horizon of `priority` is released. */
export function strideOf(priority: number): number {
  return STRIDE / shareWeight(priority);
}

// Arrivals are numbered; 2^32 of them per priority level keep scores exact integers in a double.
const ARRIVALS = 2 ** 32;

/**
 * The score that orders a tenant's pending horizons: higher priority first, then first come.
 * `arrival` is a farm-wide counter.
 */
export function pendingScore(priority: number, arrival: number): number {
  return (MAX_PRIORITY - priority) * ARRIVALS + (arrival % ARRIVALS);
}

/** The priority a `pendingScore` was made from. */
export function priorityOfScore(score: number): number {
  return MAX_PRIORITY - Math.floor(score / ARRIVALS);
}

/** A horizon waiting at the head of its tenant's line. */
export interface PendingHead {
  id: string;
  priority: number;
}

/** A tenant with horizons pending: its pass and the first of its horizons, in order. */
export interface TenantLine {
  tenant: string;
  pass: number;
  heads: readonly PendingHead[];
}

/** What to release, in order, and the passes after it. */
export interface ReleasePlan {
  picks: Array<PendingHead & { tenant: string }>;
  /** The new pass of every tenant picked. */
  passes: Map<string, number>;
  /** The farm's pass after the plan: where a tenant that joins later starts. */
  globalPass: number;
}

/**
 * Stride scheduling (Waldspurger and Weihl): each release goes to the tenant with the lowest
 * pass (ties by name, so every coordinator plans alike), whose pass then grows by the stride of
 * the horizon released. The farm's pass follows the pass of each pick; a tenant joins at it, so
 * an idle tenant earns no credit. Plans at most `count` releases; fewer when lines run out.
 */
export function planReleases(lines: readonly TenantLine[], globalPass: number, count: number): ReleasePlan {
  const state = lines
    .filter((line) => line.heads.length > 0)
    .map((line) => ({ tenant: line.tenant, pass: line.pass, heads: line.heads, next: 0 }));
  const picks: ReleasePlan['picks'] = [];
  const passes = new Map<string, number>();
  let pass = globalPass;
  while (picks.length < count) {
    let best: (typeof state)[number] | undefined;
    for (const line of state) {
      if (line.next >= line.heads.length) continue;
      if (
        best === undefined ||
        line.pass < best.pass ||
        (line.pass === best.pass && line.tenant < best.tenant)
      )
        best = line;
    }
    if (best === undefined) break;
    const head = best.heads[best.next++]!;
    picks.push({ tenant: best.tenant, id: head.id, priority: head.priority });
    pass = Math.max(pass, best.pass);
    best.pass += strideOf(head.priority);
    passes.set(best.tenant, best.pass);
  }
  return { picks, passes, globalPass: pass };
}

/** The most horizons the fair-share gate keeps queued, however fast the workers take them. */
export const MAX_LOOKAHEAD = 256;

/** The work the gate aims to keep queued, in time: what a tenant that arrives waits behind. */
export const LOOKAHEAD_TARGET_MS = 100;

/**
 * The gate's next lookahead (docs/farm.md, "Fair share"): doubled when the workers took every
 * queued horizon while more were pending (they may have waited for the next release), less one
 * when at least half of it was still queued; never under `base`, and never over what the workers
 * take in `LOOKAHEAD_TARGET_MS` at `releasesPerSec`. Millisecond horizons thus keep the workers
 * fed, and a tenant that arrives waits behind a tenth of a second of queued work.
 */
export function nextLookahead(
  current: number,
  base: number,
  round: { untaken: number; active: number; releasedBefore: boolean; releasesPerSec: number },
): number {
  const ceiling = Math.max(
    base,
    Math.min(MAX_LOOKAHEAD, Math.ceil((round.releasesPerSec * LOOKAHEAD_TARGET_MS) / 1000)),
  );
  let next = current;
  if (round.untaken === 0 && round.active > 0 && round.releasedBefore) next = current * 2;
  else if (round.untaken >= current / 2) next = current - 1;
  return Math.min(ceiling, Math.max(base, next));
}
