import { z } from 'zod';

import { fieldName, InputError } from './input-error.js';

/** Solvers a solve or a job may ask for (@satfarm/solver's `SOLVER_NAMES`). */
export const SolverNameSchema = z.enum(['kissat', 'cadical', 'minisat']);
export type JobSolverName = z.infer<typeof SolverNameSchema>;

/** Encoding choices by name (`EncodeOptions.variant`): each a string, number or boolean. */
export const EncodingChoicesSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/**
 * Longest `timeoutSec` and `patienceSec` (the CLI's `--timeout` and `--patience`): 7 days, well
 * inside what a timer can wait (2^31 - 1 ms, about 24.8 days).
 */
export const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

/** The proof cap of a certified solve when none is given (`proofLimitMiB`): 4 GiB. */
export const DEFAULT_PROOF_LIMIT_MIB = 4096;

/** Highest `priority`: higher numbers run first. */
export const MAX_PRIORITY = 100;

/** Most solver configurations one horizon races under (`portfolio`). */
export const MAX_PORTFOLIO = 16;

/** Most horizons of one farm job in flight at once (a solve in this process has no such cap). */
export const MAX_JOB_PARALLELISM = 64;

/**
 * Which games an option applies to: the planning games' horizon sweep, the single-solve games
 * (one formula at horizon 0), or any. An option given to a game it does not apply to is refused,
 * not ignored (docs/cli.md, docs/farm.md).
 */
export type OptionScope = 'sweep' | 'single' | 'any';

/**
 * How a flag's text is read into the option's value: a whole number from 0 (`nonNegativeInt`) or
 * from 1 (`positiveInt`), seconds up to `MAX_TIMEOUT_SEC` (`secondsOrOff`: from 0, or `off`), a
 * priority up to `MAX_PRIORITY`, one of `choices`, a JSON object of scalars, a count or `off`, or
 * the text as it is. The CLI holds the parsers.
 */
export type FlagValue =
  | 'nonNegativeInt'
  | 'positiveInt'
  | 'seconds'
  | 'secondsOrOff'
  | 'priority'
  | 'choice'
  | 'json'
  | 'text'
  | 'countOrOff';

/** The commands that take the job options as flags. */
export type OptionCommand = 'solve' | 'submit';

/** An option's command-line flag, on `solve` (this process) and `submit` / `batch submit` (a farm). */
export interface OptionFlag {
  /**
   * The long flag as commander takes it: with its value's placeholder (`--max-horizon <n>`), or a
   * switch (`--unique`: true when given; `--no-quick-plan`: false when given).
   */
  readonly flags: string;
  /** How the value's text is read; absent for a switch. */
  readonly value?: FlagValue;
  /** The values a `choice` flag takes. */
  readonly choices?: readonly string[];
  /** Help, the same on both commands or each its own; absent: the option's description. */
  readonly help?: string | Readonly<Record<OptionCommand, string>>;
  /** The opposite switch offered beside it (`--no-presets` beside `--presets`). */
  readonly negation?: { readonly flags: string; readonly help: string };
  /** A flag of one job only: `batch submit`, whose flags apply to every job, lacks it. */
  readonly oneJob?: true;
}

/** One option of a solve or a farm job: its value, what it means, where it applies, its flag. */
export interface OptionSpec {
  /** The value, as JSON carries it (the API's `options.<key>`). */
  readonly schema: z.ZodType;
  /** What it does, for the API's OpenAPI page and, unless the flag has its own, the CLI's help. */
  readonly description: string;
  /** What holds when it is absent, when that needs saying. */
  readonly default?: string;
  readonly scope: OptionScope;
  /** Farm jobs only (`priority`: the order of the queue); `solve` in this process lacks it. */
  readonly farmOnly?: true;
  readonly flag: OptionFlag;
}

/**
 * The options of a solve or a farm job, defined once: the engine's `SolveOptions`, the API's
 * `options` (`JobOptionsSchema`) and the flags of `solve`, `submit` and `batch submit` all come
 * from here (docs/farm.md#http). The cross-field rules (scope by game, horizon bounds, the plan)
 * are `checkSolveOptions` in @satfarm/engine.
 */
export const JOB_OPTIONS = {
  maxHorizon: {
    schema: z.number().int().min(0),
    description: 'planning games: largest horizon to try',
    default: "the game's, at most the farm's SATFARM_MAX_HORIZON",
    scope: 'sweep',
    flag: { flags: '--max-horizon <n>', value: 'nonNegativeInt' },
  },
  minHorizon: {
    schema: z.number().int().min(0),
    description:
      'planning games: start the sweep here, e.g. from a bound an earlier run proved; the horizon below runs too, to prove it, and a plan at or below that horizon reopens the horizons under it',
    scope: 'sweep',
    flag: {
      flags: '--min-horizon <n>',
      value: 'nonNegativeInt',
      help: {
        solve:
          'start the sweep at n, e.g. from a bound an earlier run proved (n - 1 runs too, to prove it; a plan at or below n - 1 reopens the horizons under it)',
        submit: 'start the sweep at n (checked, never trusted: see solve --help)',
      },
    },
  },
  parallelism: {
    schema: z.number().int().min(1),
    description: 'horizons in flight at once',
    default: "the farm's, 4 or the API host's cores if fewer; satfarm serve: 4 or its slots if fewer",
    scope: 'any',
    flag: {
      flags: '--parallel <n>',
      value: 'positiveInt',
      help: {
        solve: 'horizons solved at once (default: the cores this process may use, CPU quota included)',
        submit: 'horizons in flight at once',
      },
    },
  },
  timeoutSec: {
    schema: z.number().positive().max(MAX_TIMEOUT_SEC),
    description: 'give up after this long',
    scope: 'any',
    flag: {
      flags: '--timeout <seconds>',
      value: 'seconds',
      help: 'give up after this long, keeping the best plan found',
    },
  },
  solver: {
    schema: SolverNameSchema,
    description: 'SAT solver',
    default: "the farm's SATFARM_SOLVER if set, else the game's: cadical for hexahop, kissat for the others",
    scope: 'any',
    flag: {
      flags: '--solver <name>',
      value: 'choice',
      choices: SolverNameSchema.options,
      help: { solve: "SAT solver (default: the game's own)", submit: 'SAT solver' },
    },
  },
  priority: {
    schema: z.number().int().min(0).max(MAX_PRIORITY),
    description: `0..${MAX_PRIORITY}, higher runs first`,
    default: '0',
    scope: 'any',
    farmOnly: true,
    flag: { flags: '--priority <n>', value: 'priority' },
  },
  unique: {
    schema: z.boolean(),
    description: 'puzzles: prove the solution unique or show a second one',
    scope: 'single',
    flag: { flags: '--unique', help: 'single-solve games: prove the solution unique, or show a second one' },
  },
  policy: {
    schema: z.string().min(1).max(64),
    description: 'horizon-choice policy (consecutive, probe, leap, bracket)',
    default: "the game's: leap for hexahop, consecutive for the others",
    scope: 'sweep',
    flag: {
      flags: '--policy <name>',
      value: 'text',
      help: 'horizon-choice policy of the sweep (consecutive, probe, leap, bracket)',
    },
  },
  patienceSec: {
    schema: z.number().positive().max(MAX_TIMEOUT_SEC),
    description:
      "seconds a probe of probe's or bracket's second slot runs before it gives way to another horizon (it runs again later with twice the time)",
    default: 'no limit',
    scope: 'sweep',
    flag: {
      flags: '--patience <seconds>',
      value: 'seconds',
      help: "how long a probe of probe's or bracket's second slot runs before it gives way to another horizon",
    },
  },
  portfolio: {
    schema: z.union([z.literal('off'), z.number().int().min(1).max(MAX_PORTFOLIO)]),
    description:
      'race a horizon under up to this many solver configurations (solver, preset, seed) on slots no horizon wants; the first answer wins and the others stop; the order is learned from recorded races',
    default: 'off',
    scope: 'any',
    flag: { flags: '--portfolio <n|off>', value: 'countOrOff' },
  },
  split: {
    schema: z.union([z.literal('off'), z.number().min(0).max(MAX_TIMEOUT_SEC)]),
    description:
      "planning games: split a horizon still unanswered after this many seconds (0: at once) into cubes by its first moves, solved on the free slots; every cube refuted proves it UNSAT, a cube's plan joined to its moves answers it",
    default: 'off',
    scope: 'sweep',
    flag: {
      flags: '--split-after <seconds|off>',
      value: 'secondsOrOff',
      help: 'split a horizon still unanswered after this many seconds (0: at once) into cubes by its first moves (cube, hexahop, snake)',
    },
  },
  presets: {
    schema: z.boolean(),
    description: 'planning games: --unsat preset for the lowest open horizon, --sat above',
    default: "the game's choice; on for cube",
    scope: 'sweep',
    flag: {
      flags: '--presets',
      help: 'planning games: solver presets by the bounds (--unsat for the lowest open horizon, --sat above)',
      negation: {
        flags: '--no-presets',
        help: 'one solver configuration for every horizon (default for games other than cube)',
      },
    },
  },
  trustBound: {
    schema: z.boolean(),
    description:
      "planning games whose lower bound is proven by an exhaustive search (cube): start the sweep at the bound, not one below, so an optimum equal to the bound needs no solver's UNSAT run below it",
    default: 'on for cube, unless certify asks for the solver-checked proof of every answer',
    scope: 'sweep',
    flag: {
      flags: '--trust-bound',
      help: "start the sweep at the game's proven lower bound (cube), not one below: an optimum equal to it needs no UNSAT run (default for cube without --certify)",
      negation: {
        flags: '--no-trust-bound',
        help: "start one below the game's lower bound, so the solver's UNSAT run proves an optimum equal to it",
      },
    },
  },
  quickPlan: {
    schema: z.boolean(),
    description:
      "planning games: look for the game's quick plan (Hex-a-Hop: a beam search) beside the sweep, off the API's event loop; when it comes, only the horizons below it go on",
    default: 'true',
    scope: 'sweep',
    flag: {
      flags: '--no-quick-plan',
      help: {
        solve:
          "no quick plan before the sweep (the game's heuristic search, whose plan bounds the sweep from above)",
        submit: "no quick plan beside the sweep (the game's heuristic search; see solve --help)",
      },
    },
  },
  plan: {
    schema: z.unknown(),
    description:
      "planning games: a plan already known (the game's moves, a solution, or an earlier job or report), replayed by the game's simulator before anything is queued; the sweep only looks below it",
    scope: 'sweep',
    flag: {
      flags: '--plan <plan>',
      value: 'text',
      oneJob: true,
      help: {
        solve:
          'a plan already known (moves, a solution, or an earlier --json report; a file, -, inline JSON or the moves as text): verified, then the sweep only looks below it',
        submit:
          'a plan already known (moves, a solution, or an earlier report or job; a file, inline JSON or the moves as text): checked by the farm, then the sweep only looks below it',
      },
    },
  },
  certify: {
    schema: z.boolean(),
    description:
      "check every UNSAT answer's DRAT proof with drat-trim before it counts (kissat or cadical; minisat writes no proofs); an answer whose proof fails the check or outgrows proofLimitMiB is unknown, so an optimum or unsatisfiable verdict stands only on checked proofs (docs/solvers.md#certified-answers)",
    default: "off; the farm's SATFARM_CERTIFY",
    scope: 'any',
    flag: {
      flags: '--certify',
      help: "check the DRAT proof of every UNSAT answer with drat-trim: the report's certified says whether the answer rests on checked proofs only",
    },
  },
  proofLimitMiB: {
    schema: z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024),
    description:
      'certify: the largest proof one run may write, MiB; past it the solver stops and the answer is unknown (proof-limit)',
    default: `${DEFAULT_PROOF_LIMIT_MIB}; the farm's SATFARM_PROOF_LIMIT_MIB`,
    scope: 'any',
    flag: { flags: '--proof-limit <MiB>', value: 'positiveInt' },
  },
  encoding: {
    schema: EncodingChoicesSchema,
    description:
      'encoding choices for the game\'s encoder (Hex-a-Hop: e.g. {"shotBudget": true}; docs/cli.md lists them), checked by the game before anything is queued; a game without choices refuses any',
    scope: 'any',
    flag: {
      flags: '--encoding <json>',
      value: 'json',
      help: {
        solve:
          'encoding choices as a JSON object, e.g. \'{"shotBudget":true}\' for hexahop (docs/cli.md lists them); a choice the game lacks exits 2',
        submit:
          'encoding choices as a JSON object (see solve --help); checked by the farm, 400 for a choice the game lacks',
      },
    },
  },
} as const satisfies Record<string, OptionSpec>;

type OptionTable = typeof JOB_OPTIONS;
export type JobOptionKey = keyof OptionTable;

/** The options a horizon sweep alone reads: a single-solve game refuses them. */
export type SweepOptionKey = {
  [K in JobOptionKey]: OptionTable[K]['scope'] extends 'sweep' ? K : never;
}[JobOptionKey];

/** Every option, in the table's order (the order of the flags in `--help`). */
export const JOB_OPTION_KEYS = Object.keys(JOB_OPTIONS) as JobOptionKey[];

/** The options only a horizon sweep reads (`scope: 'sweep'`), refused for a single-solve game. */
export const SWEEP_ONLY_OPTIONS = JOB_OPTION_KEYS.filter(
  (key): key is SweepOptionKey => JOB_OPTIONS[key].scope === 'sweep',
);

/** An option's schema with its description (and its default, when it has one to say). */
function described<K extends JobOptionKey>(key: K): OptionTable[K]['schema'] {
  const spec: OptionSpec = JOB_OPTIONS[key];
  const text =
    spec.default === undefined ? spec.description : `${spec.description}; default: ${spec.default}`;
  return spec.schema.describe(text) as OptionTable[K]['schema'];
}

type OptionalShape = { [K in JobOptionKey]: z.ZodOptional<OptionTable[K]['schema']> };
const optionalShape = Object.fromEntries(
  JOB_OPTION_KEYS.map((key) => [key, described(key).optional()]),
) as OptionalShape;

/** What a client may ask of one farm job (`POST /v1/jobs` `options`); every field is optional. */
export const JobOptionsSchema = z.strictObject({
  ...optionalShape,
  // One job does not take a whole fleet; a solve in this process may use every core it has.
  parallelism: described('parallelism').max(MAX_JOB_PARALLELISM).optional(),
});
export type JobOptions = z.infer<typeof JobOptionsSchema>;

/** What a caller may ask of a solve in this process: a job's options but the farm's own (`farmOnly`). */
export const SolveOptionsSchema = z.strictObject(optionalShape).omit({ priority: true });
export type SolveUserOptions = z.infer<typeof SolveOptionsSchema>;

/**
 * The user options among `options` (in-process fields such as a signal are left out), checked by
 * `SolveOptionsSchema`: a value of the wrong kind or out of range is an `InputError` naming the
 * option (`minHorizon`, `encoding.window`) and the reason.
 */
export function parseSolveOptions(options: object): SolveUserOptions {
  const given = Object.fromEntries(
    Object.entries(options).filter(([key, value]) => key in SolveOptionsSchema.shape && value !== undefined),
  );
  const parsed = SolveOptionsSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InputError(issue.path.map((key) => fieldName(String(key))).join('.'), issue.message);
}
