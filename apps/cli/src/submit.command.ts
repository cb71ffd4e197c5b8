import { Command, InvalidArgumentError, Option } from 'commander';

import { exitCodeFor, ExitCode } from '@satfarm/engine';
import { type EncodingChoices, InputError } from '@satfarm/games';
import { SOLVER_NAMES, type SolverName } from '@satfarm/solver';
import {
  isFinalStatus,
  type HorizonEventPayload,
  type JobEventPayload,
  type JobOptions,
  type JobResource,
  MAX_PRIORITY,
  PROGRESS_NAMESPACE,
  ProgressEvent,
} from '@satfarm/queue';

import { jsonObject, nonNegativeInt, positiveInt, positiveSeconds } from './cli-options.js';
import { readInput, readPlan } from './read-input.js';
import { renderReport } from './report-view.js';

interface SubmitFlags {
  input?: string;
  api?: string;
  key?: string;
  maxHorizon?: number;
  minHorizon?: number;
  parallel?: number;
  timeout?: number;
  solver?: SolverName;
  priority?: number;
  unique?: boolean;
  policy?: string;
  patience?: number;
  presets?: boolean;
  plan?: string;
  encoding?: EncodingChoices;
  quickPlan: boolean;
  progress: boolean;
  json?: boolean;
}

/**
 * `satfarm submit <game>`: send one job to a running farm, follow it live, print the final job as
 * `solve` prints its report: the human view, or with `--json` the job resource.
 */
export function submitCommand(): Command {
  return new Command('submit')
    .description('submit one job to a running farm, follow its progress, print the final job')
    .argument('<game>', 'cube, snake, hexahop, towers, singles, tictactoe or cnf')
    .option('-i, --input <file>', 'instance file, - for standard input, or inline JSON')
    .option('--api <url>', 'the farm (default: SATFARM_API_URL or http://127.0.0.1:3000)')
    .option('--key <key>', 'API key (default: SATFARM_API_KEY)')
    .option('--max-horizon <n>', 'planning games: largest horizon to try', nonNegativeInt)
    .option(
      '--min-horizon <n>',
      'start the sweep at n (checked, never trusted: see solve --help)',
      nonNegativeInt,
    )
    .option('--parallel <n>', 'horizons in flight at once', positiveInt)
    .option('--timeout <seconds>', 'give up after this long, keeping the best plan found', positiveSeconds)
    .addOption(new Option('--solver <name>', 'SAT solver').choices(SOLVER_NAMES))
    .option('--priority <n>', `0..${MAX_PRIORITY}, higher runs first`, priority)
    .option('--unique', 'single-solve games: prove the solution unique, or show a second one')
    .option('--policy <name>', 'horizon-choice policy of the sweep (consecutive, probe, leap, bracket)')
    .option(
      '--patience <seconds>',
      "how long a probe of probe's or bracket's second slot runs before it gives way to another horizon",
      positiveSeconds,
    )
    .option(
      '--presets',
      'planning games: solver presets by the bounds (--unsat for the lowest open horizon, --sat above)',
    )
    .option('--no-presets', 'one solver configuration for every horizon (default for games other than cube)')
    .option(
      '--plan <plan>',
      'a plan already known (moves, a solution, or an earlier report or job; a file, inline JSON or the moves as text): checked by the farm, then the sweep only looks below it',
    )
    .option(
      '--no-quick-plan',
      "no quick plan beside the sweep (the game's heuristic search; see solve --help)",
    )
    .option(
      '--encoding <json>',
      'encoding choices as a JSON object (see solve --help); checked by the farm, 400 for a choice the game lacks',
      jsonObject,
    )
    .option('--json', "print the final job as one JSON object (the API's job resource)")
    .option('--no-progress', 'no progress lines on a terminal')
    .action(async (game: string, flags: SubmitFlags) => {
      const api = farmUrl(flags.api);
      const instance = await readInput(flags.input);
      const plan = await readPlan(flags.plan, flags.input);
      const key = flags.key ?? process.env.SATFARM_API_KEY;
      const client = new FarmClient(api, key);
      const options: JobOptions = {
        ...(flags.maxHorizon === undefined ? {} : { maxHorizon: flags.maxHorizon }),
        ...(flags.minHorizon === undefined ? {} : { minHorizon: flags.minHorizon }),
        ...(flags.parallel === undefined ? {} : { parallelism: flags.parallel }),
        ...(flags.timeout === undefined ? {} : { timeoutSec: flags.timeout }),
        ...(flags.solver === undefined ? {} : { solver: flags.solver }),
        ...(flags.priority === undefined ? {} : { priority: flags.priority }),
        ...(flags.unique ? { unique: true } : {}),
        ...(flags.policy === undefined ? {} : { policy: flags.policy }),
        ...(flags.patience === undefined ? {} : { patienceSec: flags.patience }),
        ...(flags.presets === undefined ? {} : { presets: flags.presets }),
        ...(plan === undefined ? {} : { plan }),
        ...(flags.quickPlan ? {} : { quickPlan: false }),
        ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
      };
      const showProgress = flags.progress && process.stderr.isTTY;
      let resource: JobResource;
      try {
        resource = await client.run({ game, instance, options }, (line) => {
          if (showProgress) process.stderr.write(`${line}\n`);
        });
      } catch (err) {
        if (err instanceof FarmUnreachableError) {
          process.stderr.write(`satfarm: ${err.message}\n`);
          process.exitCode = ExitCode.unreachable;
          return;
        }
        if (err instanceof FarmAnswerError) {
          process.stderr.write(`satfarm: internal error: ${err.message}\n`);
          process.exitCode = ExitCode.internal;
          return;
        }
        throw err;
      }
      process.stdout.write(flags.json ? `${JSON.stringify(resource)}\n` : renderReport(resource));
      process.exitCode = exitCodeForJob(resource);
    });
}

/** The CLI exit code for a job as it ended (docs/cli.md; failed is an internal error). */
export function exitCodeForJob(job: Pick<JobResource, 'status' | 'bounds'>): number {
  const { status, bounds } = job;
  if (status === 'failed') return ExitCode.internal;
  if (status === 'cancelled' || status === 'queued' || status === 'running') return ExitCode.unknown;
  return exitCodeFor({ status, bounds });
}

/** `--priority`: a whole number the farm takes (0..MAX_PRIORITY), checked before connecting. */
function priority(value: string): number {
  const n = nonNegativeInt(value);
  if (n > MAX_PRIORITY) throw new InvalidArgumentError(`expected 0..${MAX_PRIORITY}, got '${value}'`);
  return n;
}

/** The farm's base URL from `--api`, else SATFARM_API_URL, else the local default; http(s) only. */
function farmUrl(flag: string | undefined): string {
  const [field, value] =
    flag !== undefined
      ? ['api', flag]
      : ['SATFARM_API_URL', process.env.SATFARM_API_URL ?? 'http://127.0.0.1:3000'];
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InputError(field, `expected an http:// or https:// URL of the farm, got '${value}'`);
  }
  return value.replace(/\/+$/, '');
}

/** The farm did not answer (connection refused, unknown host...). */
class FarmUnreachableError extends Error {
  constructor(api: string, reason: string, options?: ErrorOptions) {
    super(`cannot reach the farm at ${api}: ${reason}`, options);
    this.name = 'FarmUnreachableError';
  }
}

/**
 * The farm answered, but not as its API answers a request it could serve: an HTTP 500, a body
 * that is not JSON, a job without an id. A fault of the farm's, reported in one line (exit 4).
 */
class FarmAnswerError extends Error {
  constructor(api: string, what: string, reason: string) {
    super(`the farm at ${api} answered ${what} with ${reason}`);
    this.name = 'FarmAnswerError';
  }
}

/** Gateway statuses: a proxy in front of the farm answering for a farm that is not there. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** At most one line of at most 200 characters of an answer's text, for a message. */
function excerpt(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

/** The body of an API error answer. */
interface ErrorBody {
  message?: string;
  issues?: Array<{ field: string; reason: string }>;
}

/** A client of one farm: submits a job over HTTP and follows it on the `/progress` websocket. */
class FarmClient {
  constructor(
    private readonly api: string,
    private readonly key: string | undefined,
  ) {}

  async run(body: unknown, log: (line: string) => void): Promise<JobResource> {
    const { io } = await import('socket.io-client');
    const socket = io(`${this.api}${PROGRESS_NAMESPACE}`, {
      transports: ['websocket'],
      ...(this.key === undefined ? {} : { auth: { token: this.key } }),
      reconnectionAttempts: 10,
    });
    let jobId: string | undefined;
    const interrupt = (): void => {
      if (jobId !== undefined) void this.request('DELETE', `/v1/jobs/${jobId}`).catch(() => undefined);
    };
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', (err: Error) =>
          reject(new FarmUnreachableError(this.api, err.message, { cause: err })),
        );
      });
      const ended = new Promise<void>((resolve, reject) => {
        // A dropped connection (an API replica restarted, a proxy cut it) loses the subscription
        // with it: subscribe again on each reconnection; the farm sends the final event at once
        // to a subscriber of a job that ended meanwhile.
        socket.io.on('reconnect', () => {
          if (jobId !== undefined)
            void socket.emitWithAck(ProgressEvent.subscribe, { jobId }).catch(() => undefined);
        });
        socket.io.on('reconnect_failed', () =>
          reject(
            new FarmUnreachableError(this.api, 'the progress connection was lost and did not come back'),
          ),
        );
        socket.on(ProgressEvent.horizon, (e: HorizonEventPayload) => {
          if (e.jobId === jobId) log(`t=${e.t} ${e.state}${e.ms > 0 ? ` ${e.ms} ms` : ''}`);
        });
        socket.on(ProgressEvent.job, (e: JobEventPayload) => {
          if (e.jobId !== jobId) return;
          const upper = e.bounds.upper === undefined ? '-' : String(e.bounds.upper);
          log(`${e.status}: lower ${e.bounds.lower}, upper ${upper}`);
          if (isFinalStatus(e.status)) resolve();
        });
      });
      const created = (await this.request('POST', '/v1/jobs', body)) as { id?: unknown } | undefined;
      if (typeof created?.id !== 'string' || created.id === '')
        throw new FarmAnswerError(this.api, 'POST /v1/jobs', 'no job id');
      jobId = created.id;
      log(`job ${jobId} submitted to ${this.api}`);
      // Cut off before its answer, the subscription is made again on reconnection (above).
      const ack = (await socket.emitWithAck(ProgressEvent.subscribe, { jobId }).catch((err: unknown) => {
        if (socket.connected) throw err;
        return undefined;
      })) as { ok: boolean; error?: string } | undefined;
      if (ack !== undefined && !ack.ok)
        throw new FarmAnswerError(this.api, `the subscription to job ${jobId}`, ack.error ?? 'a refusal');
      await ended;
      return (await this.request('GET', `/v1/jobs/${jobId}`)) as JobResource;
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      socket.close();
    }
  }

  private async request(method: string, path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.api}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.key === undefined ? {} : { authorization: `Bearer ${this.key}` }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new FarmUnreachableError(this.api, (err as Error).message, { cause: err });
    }
    const text = await response.text().catch((err: unknown) => {
      throw new FarmUnreachableError(this.api, (err as Error).message, { cause: err });
    });
    if (GATEWAY_STATUSES.has(response.status))
      throw new FarmUnreachableError(this.api, `HTTP ${response.status} ${excerpt(text)}`.trimEnd());
    let json: ErrorBody | undefined;
    try {
      json = text === '' ? undefined : (JSON.parse(text) as ErrorBody);
    } catch {
      throw new FarmAnswerError(
        this.api,
        `${method} ${path}`,
        `HTTP ${response.status} and a body that is not JSON: ${excerpt(text)}`,
      );
    }
    if (response.status === 400) {
      const issue = json?.issues?.[0];
      throw new InputError(issue?.field ?? 'request', issue?.reason ?? json?.message ?? text);
    }
    if (response.status === 401)
      throw new InputError('key', `the farm refused the API key (${json?.message ?? ''})`);
    if (response.status === 413) throw new InputError('input', 'too large for this farm');
    if (!response.ok) {
      const reason = json?.message === undefined ? excerpt(text) : String(json.message);
      throw new FarmAnswerError(this.api, `${method} ${path}`, `HTTP ${response.status}: ${reason}`);
    }
    return json;
  }
}
