import { resolve } from 'node:path';

import { z } from 'zod';

import { MAX_PORTFOLIO, SolverNameSchema } from './job-request.schema.js';

const blankAsUnset = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** A `postgres://` or `postgresql://` URL that names a host. */
function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^\s*\d+\s*$/, `expected an integer from ${min} to ${max}`)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max))
      .optional(),
  );

/** The farm's environment variables (docs/farm.md, Configuration), validated when a process starts. */
export const FarmEnvSchema = z.object({
  REDIS_URL: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'expected redis://[user:password@]host[:port][/db] or rediss://...')
      .optional(),
  ),
  SATFARM_API_KEYS: z.preprocess(
    blankAsUnset,
    z
      .string()
      .transform((s) => s.split(',').map((k) => k.trim()))
      .pipe(z.array(z.string().min(16, 'every key needs at least 16 characters')).min(1))
      .optional(),
  ),
  SATFARM_SOLVER: z.preprocess(blankAsUnset, SolverNameSchema.optional()),
  SATFARM_PORTFOLIO: z.preprocess(
    blankAsUnset,
    z.union([z.literal('off'), z.coerce.number().int().min(1).max(MAX_PORTFOLIO)]).optional(),
  ),
  SATFARM_CERTIFY: z.preprocess(blankAsUnset, z.enum(['on', 'off']).default('off')),
  SATFARM_PROOF_LIMIT_MIB: int(1, 1024 * 1024),
  // Read where a 3x3 bound is computed (docs/games.md#cube); checked here so a bad value stops the start.
  SATFARM_BOUND_SEARCH_NODES: int(0, 1_000_000_000),
  SATFARM_WORKER_SLOTS: int(1, 256),
  PORT: int(0, 65535),
  SATFARM_PREFIX: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1 to 64 letters, digits, - or _')
      .default('satfarm'),
  ),
  SATFARM_MAX_BODY_BYTES: int(1024),
  SATFARM_MAX_HORIZON: int(0, 100_000),
  SATFARM_RATE_LIMIT: int(0),
  SATFARM_JOB_TTL_SEC: int(60),
  SATFARM_SOLVER_CPU_SECONDS: int(1, 7 * 24 * 3600),
  SATFARM_SOLVER_MEMORY_MIB: int(16, 1024 * 1024),
  SATFARM_FORMULA_MEMORY_MIB: int(1, 1024 * 1024),
  SATFARM_HORIZON_LOCK_SEC: int(2, 3600),
  SATFARM_QUICK_PLAN_HEAP_MIB: int(1, 64 * 1024),
  SATFARM_FAIR_SHARE: z.preprocess(blankAsUnset, z.enum(['on', 'off']).default('on')),
  SATFARM_FAIR_LOOKAHEAD: int(1, 100_000),
  SATFARM_SOLVER_LAUNCH: z.preprocess(blankAsUnset, z.enum(['host', 'node-host', 'direct']).default('host')),
  SATFARM_DATABASE_URL: z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine(isPostgresUrl, 'expected postgres://[user[:password]@]host[:port]/database or postgresql://...')
      .optional(),
  ),
  SATFARM_ARCHIVED_KEEP_SEC: int(0, 7 * 24 * 3600),
  SATFARM_RETENTION_DAYS: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/, 'expected a positive number of days')
      .transform(Number)
      .pipe(z.number().positive('expected a positive number of days'))
      .optional(),
  ),
  SATFARM_LEVEL_FILES: z.preprocess(
    blankAsUnset,
    z
      .string()
      .transform((s) => s.split(',').map((p) => p.trim()))
      .pipe(z.array(z.string().regex(/^\//, 'expected absolute paths, separated by commas')))
      .optional(),
  ),
});

/** The farm's settings, with defaults applied. */
export interface FarmConfig {
  /** Unset: the embedded default (`satfarm serve` starts a local Redis). */
  redisUrl?: string;
  /** Bearer keys accepted on `/v1` and `/progress`; none: no authentication. */
  apiKeys?: string[];
  /** The solver of jobs that name none; unset: each game's default (kissat for most). */
  solver?: z.infer<typeof SolverNameSchema>;
  /**
   * Configurations each horizon races under when a job does not say (`options.portfolio`,
   * docs/farm.md#portfolio); unset or `off`: none.
   */
  portfolio?: number;
  /**
   * Certify the UNSAT answers of jobs that do not say (`options.certify`, SATFARM_CERTIFY=on;
   * docs/solvers.md#certified-answers); unset: off.
   */
  certify?: true;
  /** The proof cap of certified jobs that do not say (`options.proofLimitMiB`, SATFARM_PROOF_LIMIT_MIB). */
  proofLimitMiB?: number;
  /** Solver slots of a worker process; unset: one per core. */
  workerSlots?: number;
  port: number;
  prefix: string;
  maxBodyBytes: number;
  /** The largest `options.maxHorizon` accepted (and the cap on a game's default). */
  maxHorizon: number;
  /** Requests a minute per API key (or per address without keys); 0 turns limiting off. */
  rateLimitPerMinute: number;
  /** How long a finished job stays readable. */
  jobTtlSec: number;
  /** CPU-time and address-space limits of every solver process a worker starts; unset: none. */
  solverLimits: { cpuSeconds?: number; memoryMiB?: number };
  /**
   * The most memory one horizon's formula may take in a worker (4 bytes a literal): a build past
   * it stops, and the horizon ends `unknown`, reason `formula-limit`; unset: an eighth of the
   * memory the worker may use, shared among its slots (`defaultMaxFormulaBytes`).
   */
  formulaMemoryMiB?: number;
  /**
   * How long a worker's claim on a horizon lasts without renewal (it renews at half of it): when
   * a worker dies without a drain (SIGKILL, OOM kill, lost node), its horizons go to another
   * worker after at most about twice this.
   */
  horizonLockMs: number;
  /**
   * Level files (absolute paths) a job's input may name besides a game's installed default, e.g.
   * Hex-a-Hop's `levels`; none by default, so clients cannot make the API read or probe its files.
   */
  levelFiles: string[];
  /**
   * Heap limit of a coordinator's quick-plan thread: a search above it ends the thread, and the
   * job goes on without a quick plan instead of the API process running out of memory.
   */
  quickPlanHeapMiB: number;
  /**
   * How a worker starts solver processes: `host`, its spawn host (the native one where built);
   * `node-host`, the Node spawn host; `direct`, the worker itself (its event loop pays each fork).
   */
  solverLaunch: 'host' | 'node-host' | 'direct';
  /**
   * The fair-share gate (docs/farm.md, "Fair share") and its lookahead: the untaken horizons kept
   * in the queue (at least as many as run). Unset (SATFARM_FAIR_SHARE=off): horizons go straight
   * to the queue, in priority then arrival order.
   */
  fairShare?: { lookahead: number };
  /**
   * The PostgreSQL store of record of finished jobs and batches (docs/batches.md, "Store of
   * record"); unset: Redis keeps them for `jobTtlSec`.
   */
  databaseUrl?: string;
  /** How long the store of record keeps a finished job; unset: for ever. */
  retentionDays?: number;
  /**
   * Seconds Redis keeps a finished job once the store of record has it (reads then fall back to
   * the store); unset: an hour.
   */
  archivedKeepSec?: number;
}

/** A bad environment variable: the message names it, and the process does not start. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/** Reads and checks the farm's settings from `env`; throws `ConfigError` naming the variable. */
export function loadFarmConfig(env: NodeJS.ProcessEnv = process.env): FarmConfig {
  const parsed = FarmEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    // Keys and URLs may hold secrets: only plain settings are echoed back.
    const secret = ['SATFARM_API_KEYS', 'REDIS_URL', 'SATFARM_DATABASE_URL'].includes(variable);
    throw new ConfigError(
      variable,
      secret ? issue.message : `${issue.message} (got '${String(env[variable] ?? '')}')`,
    );
  }
  const e = parsed.data;
  for (const variable of ['SATFARM_RETENTION_DAYS', 'SATFARM_ARCHIVED_KEEP_SEC'] as const) {
    if (e[variable] !== undefined && e.SATFARM_DATABASE_URL === undefined)
      throw new ConfigError(
        variable,
        'applies to the store of record, which needs SATFARM_DATABASE_URL (without it, SATFARM_JOB_TTL_SEC applies)',
      );
  }
  return {
    redisUrl: e.REDIS_URL,
    apiKeys: e.SATFARM_API_KEYS,
    solver: e.SATFARM_SOLVER,
    ...(typeof e.SATFARM_PORTFOLIO === 'number' && e.SATFARM_PORTFOLIO > 1
      ? { portfolio: e.SATFARM_PORTFOLIO }
      : {}),
    ...(e.SATFARM_CERTIFY === 'on' ? { certify: true as const } : {}),
    ...(e.SATFARM_PROOF_LIMIT_MIB === undefined ? {} : { proofLimitMiB: e.SATFARM_PROOF_LIMIT_MIB }),
    workerSlots: e.SATFARM_WORKER_SLOTS,
    port: e.PORT ?? 3000,
    prefix: e.SATFARM_PREFIX,
    maxBodyBytes: e.SATFARM_MAX_BODY_BYTES ?? 8 * 1024 * 1024,
    maxHorizon: e.SATFARM_MAX_HORIZON ?? 1000,
    rateLimitPerMinute: e.SATFARM_RATE_LIMIT ?? 6000,
    jobTtlSec: e.SATFARM_JOB_TTL_SEC ?? 7 * 24 * 3600,
    solverLimits: {
      ...(e.SATFARM_SOLVER_CPU_SECONDS === undefined ? {} : { cpuSeconds: e.SATFARM_SOLVER_CPU_SECONDS }),
      ...(e.SATFARM_SOLVER_MEMORY_MIB === undefined ? {} : { memoryMiB: e.SATFARM_SOLVER_MEMORY_MIB }),
    },
    ...(e.SATFARM_FORMULA_MEMORY_MIB === undefined ? {} : { formulaMemoryMiB: e.SATFARM_FORMULA_MEMORY_MIB }),
    horizonLockMs: (e.SATFARM_HORIZON_LOCK_SEC ?? 30) * 1000,
    solverLaunch: e.SATFARM_SOLVER_LAUNCH,
    levelFiles: (e.SATFARM_LEVEL_FILES ?? []).map((p) => resolve(p)),
    quickPlanHeapMiB: e.SATFARM_QUICK_PLAN_HEAP_MIB ?? 256,
    ...(e.SATFARM_FAIR_SHARE === 'off' ? {} : { fairShare: { lookahead: e.SATFARM_FAIR_LOOKAHEAD ?? 4 } }),
    ...(e.SATFARM_DATABASE_URL === undefined ? {} : { databaseUrl: e.SATFARM_DATABASE_URL }),
    ...(e.SATFARM_RETENTION_DAYS === undefined ? {} : { retentionDays: e.SATFARM_RETENTION_DAYS }),
    ...(e.SATFARM_ARCHIVED_KEEP_SEC === undefined ? {} : { archivedKeepSec: e.SATFARM_ARCHIVED_KEEP_SEC }),
  };
}
