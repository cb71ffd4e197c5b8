import { z } from 'zod';

/** Solvers a job may ask for. */
export const SolverNameSchema = z.enum(['kissat', 'cadical', 'minisat']);

/** Encoding choices by name (`EncodeOptions.variant`): each a string, number or boolean. */
export const EncodingChoicesSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type JobEncodingChoices = z.infer<typeof EncodingChoicesSchema>;

/**
 * Longest `options.timeoutSec` and `options.patienceSec`, and of the CLI's `--timeout` and
 * `--patience`: 7 days, well inside what a timer can wait (2^31 - 1 ms, about 24.8 days).
 */
export const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

/** Highest `options.priority`: higher numbers run first. */
export const MAX_PRIORITY = 100;

/** What a client may ask of one job (`POST /v1/jobs` `options`); every field is optional. */
export const JobOptionsSchema = z.strictObject({
  maxHorizon: z.number().int().min(0).optional().describe('planning games: largest horizon to try'),
  minHorizon: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'planning games: start the sweep here, e.g. from a bound an earlier run proved; the horizon below runs too, to prove it, and a plan at or below that horizon reopens the horizons under it',
    ),
  parallelism: z
    .number()
    .int()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "horizons in flight at once (default: the farm's, 4 or the API host's cores if fewer; satfarm serve: 4 or its slots if fewer)",
    ),
  timeoutSec: z.number().positive().max(MAX_TIMEOUT_SEC).optional().describe('give up after this long'),
  solver: SolverNameSchema.optional().describe(
    "SAT solver (default: the farm's SATFARM_SOLVER if set, else the game's: cadical for hexahop, kissat for the others)",
  ),
  priority: z
    .number()
    .int()
    .min(0)
    .max(MAX_PRIORITY)
    .optional()
    .describe('0..100, higher runs first; default 0'),
  unique: z.boolean().optional().describe('puzzles: prove the solution unique or show a second one'),
  policy: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('horizon-choice policy (consecutive, probe, leap, bracket)'),
  patienceSec: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SEC)
    .optional()
    .describe(
      "seconds a probe of probe's or bracket's second slot runs before it gives way to another horizon (it runs again later with twice the time); default: no limit",
    ),
  plan: z
    .unknown()
    .optional()
    .describe(
      "planning games: a plan already known (the game's moves, a solution, or an earlier job or report), replayed by the game's simulator before anything is queued; the sweep only looks below it",
    ),
  quickPlan: z
    .boolean()
    .optional()
    .describe(
      "planning games: look for the game's quick plan (Hex-a-Hop: a beam search) beside the sweep, off the API's event loop; when it comes, only the horizons below it go on (default true)",
    ),
  presets: z
    .boolean()
    .optional()
    .describe(
      "planning games: --unsat preset for the lowest open horizon, --sat above (default: the game's choice; on for cube)",
    ),
  encoding: EncodingChoicesSchema.optional().describe(
    'encoding choices for the game\'s encoder (Hex-a-Hop: e.g. {"shotBudget": true}; docs/cli.md lists them), checked by the game before anything is queued; a game without choices refuses any',
  ),
});
export type JobOptions = z.infer<typeof JobOptionsSchema>;

/** The body of `POST /v1/jobs`. */
export const JobRequestSchema = z.strictObject({
  game: z.string().min(1).max(32).describe('cube, snake, hexahop, towers, singles, tictactoe or cnf'),
  instance: z
    .custom<unknown>((v) => v !== undefined && v !== null, { message: 'required' })
    .describe('the instance: a JSON value, or text (DIMACS, a Tatham game ID)'),
  options: JobOptionsSchema.optional(),
});
export type JobRequest = z.infer<typeof JobRequestSchema>;

/** Most jobs in one batch. */
export const MAX_BATCH_JOBS = 1000;

/** The body of `POST /v1/batches` (docs/batches.md). */
export const BatchRequestSchema = z.strictObject({
  jobs: z.array(JobRequestSchema).min(1).max(MAX_BATCH_JOBS),
  key: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('idempotency key: a second request with it answers the batch the first one made'),
  label: z.string().max(200).optional().describe("the batch's name in lists"),
});
export type BatchRequest = z.infer<typeof BatchRequestSchema>;

/** The body of `POST /v1/batches/:id/jobs`: more jobs for a batch, at `offset`. */
export const BatchAppendSchema = z.strictObject({
  offset: z
    .number()
    .int()
    .min(1)
    .describe(
      "the batch's size this part starts at: a part appends only there, and one already appended answers its ids",
    ),
  jobs: z.array(JobRequestSchema).min(1).max(MAX_BATCH_JOBS),
});
export type BatchAppend = z.infer<typeof BatchAppendSchema>;
