import type { FarmOverview, JobRequest, JobResource } from '@satfarm/queue';

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

  listJobs(limit: number): Promise<{ jobs: JobResource[] }> {
    return this.request('GET', `v1/jobs?limit=${limit}`);
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

  farm(): Promise<FarmOverview> {
    return this.request('GET', 'v1/farm');
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    const key = this.apiKey();
    if (key) headers.authorization = `Bearer ${key}`;
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
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
