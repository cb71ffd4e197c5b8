import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';

import {
  type FarmKeys,
  HorizonJobSchema,
  horizonJobIdOf,
  MAX_PRIORITY,
  nextLookahead,
  parsePayload,
  pendingScore,
  planReleases,
  priorityOfScore,
  type TenantLine,
  untakenHorizons,
} from '@satfarm/queue';

import type { HorizonToQueue } from './horizon.dispatch.js';

// Holds horizons back, one sorted set per tenant. A horizon already in BullMQ (queued, running or
// recently finished) or already pending is skipped, so queueing one again (a coordinator's resume)
// changes nothing. A tenant that joins starts at the farm's pass.
// KEYS: tenants, horizons, clock, then per horizon its tenant's pending set and its BullMQ job key.
// ARGV: per horizon id, tenant, score base (`pendingScore(priority, 0)`), entry.
const ADD = `
local added = 0
for i = 1, (#KEYS - 3) / 2 do
  local pending, queued = KEYS[2 + 2 * i], KEYS[3 + 2 * i]
  local id, tenant = ARGV[4 * i - 3], ARGV[4 * i - 2]
  if redis.call('EXISTS', queued) == 0 and redis.call('HEXISTS', KEYS[2], id) == 0 then
    local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
    redis.call('ZADD', pending, string.format('%.0f', tonumber(ARGV[4 * i - 1]) + seq % 4294967296), id)
    redis.call('HSET', KEYS[2], id, ARGV[4 * i])
    if not redis.call('ZSCORE', KEYS[1], tenant) then
      redis.call('ZADD', KEYS[1], redis.call('HGET', KEYS[3], 'pass') or '0', tenant)
    end
    added = added + 1
  end
end
if added > 0 then redis.call('HINCRBY', KEYS[3], 'version', 1) end
return added
`;

// Takes the planned horizons out, if nothing changed since the plan was read (the version), so
// two coordinators never release the same horizon. Returns their entries, or nil on a conflict.
// KEYS: tenants, horizons, clock, then the pending set of each pick, then of each tenant picked.
// ARGV: version, farm pass, number of picks, the picks' ids, then per tenant its name and pass.
const TAKE = `
if (redis.call('HGET', KEYS[3], 'version') or '0') ~= ARGV[1] then return false end
local n = tonumber(ARGV[3])
local out = {}
for i = 1, n do
  redis.call('ZREM', KEYS[3 + i], ARGV[3 + i])
  out[i] = redis.call('HGET', KEYS[2], ARGV[3 + i])
  redis.call('HDEL', KEYS[2], ARGV[3 + i])
end
for j = 1, #KEYS - 3 - n do
  local tenant = ARGV[2 + n + 2 * j]
  if redis.call('ZCARD', KEYS[3 + n + j]) == 0 then
    redis.call('ZREM', KEYS[1], tenant)
  else
    redis.call('ZADD', KEYS[1], ARGV[3 + n + 2 * j], tenant)
  end
end
redis.call('HSET', KEYS[3], 'pass', ARGV[2])
redis.call('HINCRBY', KEYS[3], 'version', 1)
return out
`;

// Drops pending horizons (cancelled or dominated); a tenant left with none leaves the tenants set.
// KEYS: tenants, horizons, clock. ARGV: the pending sets' key prefix, then the horizon ids.
const REMOVE = `
local removed = 0
for i = 2, #ARGV do
  local entry = redis.call('HGET', KEYS[2], ARGV[i])
  if entry then
    local tenant = cjson.decode(entry).tenant
    local pending = ARGV[1] .. tenant
    redis.call('ZREM', pending, ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    if redis.call('ZCARD', pending) == 0 then redis.call('ZREM', KEYS[1], tenant) end
    removed = removed + 1
  end
end
if removed > 0 then redis.call('HINCRBY', KEYS[3], 'version', 1) end
return removed
`;

const PendingEntrySchema = z.object({
  tenant: z.string(),
  priority: z.number().int().min(0).max(MAX_PRIORITY),
  payload: HorizonJobSchema,
});

interface GateCommands {
  satfarmFairAdd(numKeys: number, ...args: string[]): Promise<number>;
  satfarmFairTake(numKeys: number, ...args: string[]): Promise<string[] | null>;
  satfarmFairRemove(numKeys: number, ...args: string[]): Promise<number>;
}

/** The span over which the gate measures how fast it releases. */
const RATE_WINDOW_MS = 2_000;

/** Plans that lost a race with another coordinator are planned again this many times. */
const MAX_TAKE_ATTEMPTS = 8;

/** The fair-share gate's settings (docs/farm.md, "Fair share"). */
export interface FairShareOptions {
  /**
   * Horizons kept queued for the workers beyond the pending sets: the gate releases while the
   * queue holds fewer untaken horizons than the larger of the lookahead and the horizons running.
   * This is its least value: it doubles while the workers empty the queue between releases
   * (`nextLookahead`).
   */
  lookahead: number;
  /** How often the gate releases on its own, besides after each enqueue and report. */
  intervalMs?: number;
  /** Where a failed periodic release is told (the next one tries again). */
  onError?: (err: unknown) => void;
}

/**
 * Holds horizons back from the BullMQ queue in one pending set per tenant and releases them a few
 * at a time, as solver slots free up, by stride scheduling between the tenants
 * (`planReleases`), so a large batch queued first cannot starve a job that comes later. The state
 * lives in Redis (`FarmKeys.fair*`); every change is one Lua script, and a release applies its
 * plan only if no other coordinator changed the state since it was read.
 */
export class FairShareGate {
  private readonly redis: Redis & GateCommands;
  private running?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  /** The lookahead now: `options.lookahead`, grown while the workers outpace the releases. */
  private lookahead: number;
  private releasedBefore = false;
  /** Releases of the last two seconds, by when they happened (ms), for the release rate. */
  private readonly recentReleases: Array<{ at: number; count: number }> = [];

  constructor(
    private readonly queue: Queue,
    redis: Redis,
    private readonly keys: FarmKeys,
    private readonly add: (horizons: HorizonToQueue[]) => Promise<void>,
    private readonly options: FairShareOptions,
  ) {
    if (!('satfarmFairAdd' in redis)) {
      redis.defineCommand('satfarmFairAdd', { lua: ADD });
      redis.defineCommand('satfarmFairTake', { lua: TAKE });
      redis.defineCommand('satfarmFairRemove', { lua: REMOVE });
    }
    this.redis = redis as Redis & GateCommands;
    this.lookahead = options.lookahead;
  }

  /** Releases every `intervalMs` (default 250 ms) until `close()`. */
  start(): void {
    this.timer ??= setInterval(
      () => void this.release().catch((err: unknown) => this.options.onError?.(err)),
      this.options.intervalMs ?? 250,
    );
    this.timer.unref();
  }

  /** Stops the timer; resolves once a release under way has ended. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Puts horizons in their tenants' pending sets; returns how many were new. */
  async hold(horizons: HorizonToQueue[]): Promise<number> {
    if (horizons.length === 0) return 0;
    const { keys } = this;
    const keyArgs: string[] = [keys.fairTenants, keys.fairHorizons, keys.fairClock];
    const args: string[] = [];
    for (const h of horizons) {
      const id = horizonJobIdOf(h.payload);
      keyArgs.push(keys.fairPending(h.tenant), this.queue.toKey(id));
      args.push(
        id,
        h.tenant,
        String(pendingScore(h.priority, 0)),
        JSON.stringify({ tenant: h.tenant, priority: h.priority, payload: h.payload }),
      );
    }
    return this.redis.satfarmFairAdd(keyArgs.length, ...keyArgs, ...args);
  }

  /** Drops these horizons from the pending sets, where they are. */
  async remove(horizonJobIds: string[]): Promise<number> {
    if (horizonJobIds.length === 0) return 0;
    const { keys } = this;
    return this.redis.satfarmFairRemove(
      3,
      keys.fairTenants,
      keys.fairHorizons,
      keys.fairClock,
      keys.fairPendingPrefix,
      ...horizonJobIds,
    );
  }

  /** Horizons held back now, farm-wide. */
  async pending(): Promise<number> {
    return this.redis.hlen(this.keys.fairHorizons);
  }

  /**
   * Moves pending horizons into the queue while it holds fewer untaken horizons than the
   * lookahead. Calls made while one runs are folded into one more round after it.
   */
  release(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.releaseRound();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async releaseRound(): Promise<void> {
    // A portfolio's siblings wait for idle slots only: they leave the lookahead to the horizons.
    const { primaries: untaken, active } = await untakenHorizons(this.queue);
    this.lookahead = nextLookahead(this.lookahead, this.options.lookahead, {
      untaken,
      active,
      releasedBefore: this.releasedBefore,
      releasesPerSec: this.releaseRate(),
    });
    const budget = Math.max(this.lookahead, active) - untaken;
    if (budget <= 0) return;
    for (let attempt = 0; attempt < MAX_TAKE_ATTEMPTS; attempt++) {
      const taken = await this.take(budget);
      if (taken === undefined) continue;
      await this.add(taken);
      this.releasedBefore = taken.length > 0;
      if (taken.length > 0) this.recentReleases.push({ at: Date.now(), count: taken.length });
      return;
    }
  }

  /** Horizons this gate released per second over the last two seconds. */
  private releaseRate(): number {
    const since = Date.now() - RATE_WINDOW_MS;
    while (this.recentReleases.length > 0 && this.recentReleases[0]!.at < since) this.recentReleases.shift();
    const released = this.recentReleases.reduce((sum, r) => sum + r.count, 0);
    return (released * 1000) / RATE_WINDOW_MS;
  }

  /** Plans up to `count` releases and takes them out of the pending sets; undefined on a conflict. */
  private async take(count: number): Promise<HorizonToQueue[] | undefined> {
    const { keys } = this;
    const [clock, tenants] = (await this.redis
      .multi()
      .hmget(keys.fairClock, 'version', 'pass')
      .zrange(keys.fairTenants, '0', String(count - 1), 'WITHSCORES')
      .exec())!.map(([err, value]) => {
      if (err) throw err;
      return value as string[];
    }) as [Array<string | null>, string[]];
    if (tenants.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (let i = 0; i < tenants.length; i += 2) {
      pipeline.zrange(keys.fairPending(tenants[i]!), '0', String(count - 1), 'WITHSCORES');
    }
    const heads = (await pipeline.exec())!.map(([err, value]) => {
      if (err) throw err;
      return value as string[];
    });
    const lines: TenantLine[] = heads.map((flat, j) => ({
      tenant: tenants[2 * j]!,
      pass: Number(tenants[2 * j + 1]),
      heads: pairs(flat).map(([id, score]) => ({ id, priority: priorityOfScore(Number(score)) })),
    }));
    const plan = planReleases(lines, Number(clock[1] ?? 0), count);
    if (plan.picks.length === 0) return [];
    const picked = [...plan.passes];
    const entries = await this.redis.satfarmFairTake(
      3 + plan.picks.length + picked.length,
      keys.fairTenants,
      keys.fairHorizons,
      keys.fairClock,
      ...plan.picks.map((p) => keys.fairPending(p.tenant)),
      ...picked.map(([tenant]) => keys.fairPending(tenant)),
      clock[0] ?? '0',
      String(plan.globalPass),
      String(plan.picks.length),
      ...plan.picks.map((p) => p.id),
      ...picked.flatMap(([tenant, pass]) => [tenant, String(pass)]),
    );
    if (entries === null) return undefined;
    return entries.map((entry) => parsePayload(PendingEntrySchema, JSON.parse(entry), 'pending'));
  }
}

function pairs(flat: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}
