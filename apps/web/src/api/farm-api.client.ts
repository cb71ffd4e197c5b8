import type { BatchResource, BatchSummary, JobRequest, JobResource, JobStatus } from '@satfarm/queue';

import type { PageWindow } from '../model/paging.model';
import type { FarmView, Paged } from './farm-api.types';

/** An answer of the API other than 2xx: its status, message and, for a 400, the field at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The dashboard's view of the farm's HTTP API (docs/farm.md), relative to the page's base. */
export class FarmApiClient {
  constructor(
    private readonly base: URL,
    private readonly apiKey: () => string | undefined,
  ) {}

  /** Jobs newest first, optionally in one status. */
  listJobs(page: PageWindow, state?: JobStatus): Promise<{ jobs: JobResource[] } & Paged> {
    return this.request('GET', `v1/jobs?${query({ state, ...page })}`);
  }

  /** Batches newest first. */
  listBatches(page: PageWindow): Promise<{ batches: BatchSummary[] } & Paged> {
    return this.request('GET', `v1/batches?${query({ ...page })}`);
  }

  batch(id: string): Promise<BatchResource> {
    return this.request('GET', `v1/batches/${encodeURIComponent(id)}`);
  }

  /** A batch's jobs in submission order, optionally in one status. */
  batchJobs(id: string, page: PageWindow, state?: JobStatus): Promise<{ jobs: JobResource[] } & Paged> {
    return this.request('GET', `v1/batches/${encodeURIComponent(id)}/jobs?${query({ state, ...page })}`);
  }

  /** Cancels every job of the batch that is not over. */
  cancelBatch(id: string): Promise<BatchSummary> {
    return this.request('DELETE', `v1/batches/${encodeURIComponent(id)}`);
  }

  /** Where a batch's results download from, as JSON Lines or CSV. */
  resultsUrl(id: string, format: 'jsonl' | 'csv'): URL {
    return new URL(`v1/batches/${encodeURIComponent(id)}/results?format=${format}`, this.base);
  }

  /** The body of `url` with the API key (which a plain link cannot send), as a blob to save. */
  async download(url: URL): Promise<Blob> {
    const response = await fetch(url, { headers: this.headers() });
    if (!response.ok) throw new ApiError(response.status, `${response.status} ${await response.text()}`);
    return response.blob();
  }

  /** Whether requests carry an API key. */
  get keyed(): boolean {
    return Boolean(this.apiKey());
  }

  job(id: string): Promise<JobResource> {
    return this.request('GET', `v1/jobs/${encodeURIComponent(id)}`);
  }

  submit(request: JobRequest): Promise<{ id: string }> {
    return this.request('POST', 'v1/jobs', request);
  }

  cancel(id: string): Promise<JobResource> {
    return this.request('DELETE', `v1/jobs/${encodeURIComponent(id)}`);
  }

  farm(): Promise<FarmView> {
    return this.request('GET', 'v1/farm');
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers = this.headers();
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(new URL(path, this.base), {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, 'the farm does not answer');
    }
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) {
      const error = parsed as { message?: unknown; field?: unknown } | undefined;
      const message = typeof error?.message === 'string' ? error.message : `${response.status} ${text}`;
      throw new ApiError(
        response.status,
        message,
        typeof error?.field === 'string' ? error.field : undefined,
      );
    }
    return parsed as T;
  }

  private headers(): Record<string, string> {
    const key = this.apiKey();
    return key ? { authorization: `Bearer ${key}` } : {};
  }
}

/** A query string of the parameters that are set. */
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) search.set(name, String(value));
  return search.toString();
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
