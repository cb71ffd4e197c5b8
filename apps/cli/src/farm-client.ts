import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import type { Socket } from 'socket.io-client';

import { ExitCode } from '@satfarm/engine';
import { InputError } from '@satfarm/games';
import {
  isFinalStatus,
  type HorizonEventPayload,
  type JobEventPayload,
  type JobResource,
  PROGRESS_NAMESPACE,
  ProgressEvent,
} from '@satfarm/queue';

/** The farm's base URL from `--api`, else SATFARM_API_URL, else the local default; http(s) only. */
export function farmUrl(flag: string | undefined): string {
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
export class FarmUnreachableError extends Error {
  constructor(api: string, reason: string, options?: ErrorOptions) {
    super(`cannot reach the farm at ${api}: ${reason}`, options);
    this.name = 'FarmUnreachableError';
  }
}

/**
 * The farm answered, but not as its API answers a request it could serve: an HTTP 500, a body
 * that is not JSON, a job without an id. A fault of the farm's, reported in one line (exit 4).
 */
export class FarmAnswerError extends Error {
  constructor(api: string, what: string, reason: string) {
    super(`the farm at ${api} answered ${what} with ${reason}`);
    this.name = 'FarmAnswerError';
  }
}

/** The farm has no such thing (HTTP 404): a batch or job id it does not know. */
export class FarmNotFoundError extends InputError {
  constructor(field: string, reason: string) {
    super(field, reason);
    this.name = 'FarmNotFoundError';
  }
}

/**
 * Reports a farm error on stderr and answers its exit code (docs/cli.md): unreachable 5, a
 * wrong answer 4; undefined for any other error, which the caller rethrows.
 */
export function farmErrorExitCode(err: unknown): number | undefined {
  if (err instanceof FarmUnreachableError) {
    process.stderr.write(`satfarm: ${err.message}\n`);
    return ExitCode.unreachable;
  }
  if (err instanceof FarmAnswerError) {
    process.stderr.write(`satfarm: internal error: ${err.message}\n`);
    return ExitCode.internal;
  }
  return undefined;
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

/** What a 404 means to the caller: the field at fault and why (`batchId`, `no such batch`). */
export interface NotFound {
  field: string;
  reason: string;
}

/** An HTTP answer the farm gave: its status and JSON body. */
export interface FarmAnswer<T> {
  status: number;
  body: T;
}

/** A client of one farm: its HTTP API and the `/progress` websocket. */
export class FarmClient {
  constructor(
    readonly api: string,
    private readonly key: string | undefined,
  ) {}

  /** A socket.io connection to `/progress`, connected (a refusal is `FarmUnreachableError`). */
  async connectProgress(): Promise<Socket> {
    const { io } = await import('socket.io-client');
    const socket = io(`${this.api}${PROGRESS_NAMESPACE}`, {
      transports: ['websocket'],
      ...(this.key === undefined ? {} : { auth: { token: this.key } }),
      reconnectionAttempts: 10,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', (err: Error) =>
          reject(new FarmUnreachableError(this.api, err.message, { cause: err })),
        );
      });
    } catch (err) {
      socket.close();
      throw err;
    }
    return socket;
  }

  /** Submits one job and follows it on the websocket to its end; answers the final job. */
  async run(body: unknown, log: (line: string) => void): Promise<JobResource> {
    const socket = await this.connectProgress();
    let jobId: string | undefined;
    const interrupt = (): void => {
      if (jobId !== undefined) void this.request('DELETE', `/v1/jobs/${jobId}`).catch(() => undefined);
    };
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    try {
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
      const created = (await this.request('POST', '/v1/jobs', body)).body as { id?: unknown } | undefined;
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
      return (await this.request('GET', `/v1/jobs/${jobId}`)).body as JobResource;
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      socket.close();
    }
  }

  /**
   * One HTTP call; answers the status and the JSON body. A 400 is an `InputError` naming the
   * request's field; a 404 is a `FarmNotFoundError` with the reason `notFound` where the caller
   * names what may be missing (an unknown batch), else a wrong answer like other failures.
   */
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    notFound?: NotFound,
  ): Promise<FarmAnswer<T>> {
    const response = await this.fetch(method, path, body);
    const text = await response.text().catch((err: unknown) => {
      throw new FarmUnreachableError(this.api, (err as Error).message, { cause: err });
    });
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
    if (!response.ok) this.refuse(method, path, response.status, json, text, notFound);
    return { status: response.status, body: json as T };
  }

  /** A GET whose body is passed on as a stream, never held whole (`batch results`). */
  async stream(path: string, notFound?: NotFound): Promise<Readable> {
    const response = await this.fetch('GET', path);
    if (!response.ok || response.body === null) {
      const text = await response.text().catch(() => '');
      let json: ErrorBody | undefined;
      try {
        json = JSON.parse(text) as ErrorBody;
      } catch {
        json = undefined;
      }
      this.refuse('GET', path, response.status, json, text, notFound);
    }
    return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  }

  private async fetch(method: string, path: string, body?: unknown): Promise<Response> {
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
    if (GATEWAY_STATUSES.has(response.status)) {
      const text = await response.text().catch(() => '');
      throw new FarmUnreachableError(this.api, `HTTP ${response.status} ${excerpt(text)}`.trimEnd());
    }
    return response;
  }

  private refuse(
    method: string,
    path: string,
    status: number,
    json: ErrorBody | undefined,
    text: string,
    notFound: NotFound | undefined,
  ): never {
    if (status === 400) {
      const issue = json?.issues?.[0];
      throw new InputError(issue?.field ?? 'request', issue?.reason ?? json?.message ?? text);
    }
    if (status === 401) throw new InputError('key', `the farm refused the API key (${json?.message ?? ''})`);
    if (status === 404 && notFound !== undefined)
      throw new FarmNotFoundError(notFound.field, notFound.reason);
    if (status === 413) throw new InputError('input', 'too large for this farm');
    const reason = json?.message === undefined ? excerpt(text) : String(json.message);
    throw new FarmAnswerError(this.api, `${method} ${path}`, `HTTP ${status}: ${reason}`);
  }
}
