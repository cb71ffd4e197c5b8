import type { Readable } from 'node:stream';

import type { BatchCreated, BatchResource, BatchSummary, JobRequest, JobResource } from '@satfarm/queue';

import { FarmAnswerError, type FarmClient, type NotFound } from './farm-client.js';

/** The batch routes of the farm's API (docs/batches.md). */
export class BatchClient {
  constructor(readonly farm: FarmClient) {}

  async create(jobs: JobRequest[], key: string, label: string | undefined): Promise<BatchCreated> {
    const { body } = await this.farm.request<BatchCreated>('POST', '/v1/batches', {
      jobs,
      key,
      ...(label === undefined ? {} : { label }),
    });
    if (typeof body?.batchId !== 'string' || body.batchId === '')
      throw new FarmAnswerError(this.farm.api, 'POST /v1/batches', 'no batch id');
    return body;
  }

  async append(batchId: string, offset: number, jobs: JobRequest[]): Promise<BatchCreated> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}/jobs`;
    return (await this.farm.request<BatchCreated>('POST', path, { offset, jobs }, unknownBatch(batchId)))
      .body;
  }

  async get(batchId: string): Promise<BatchResource> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}`;
    return (await this.farm.request<BatchResource>('GET', path, undefined, unknownBatch(batchId))).body;
  }

  async cancel(batchId: string): Promise<BatchSummary> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}`;
    return (await this.farm.request<BatchSummary>('DELETE', path, undefined, unknownBatch(batchId))).body;
  }

  async list(limit: number): Promise<BatchSummary[]> {
    const { body } = await this.farm.request<{ batches?: BatchSummary[] }>(
      'GET',
      `/v1/batches?limit=${limit}`,
    );
    return body?.batches ?? [];
  }

  /** The batch's jobs in one status, page by page (500 a call). */
  async *jobs(batchId: string, state: string): AsyncGenerator<JobResource> {
    const base = `/v1/batches/${encodeURIComponent(batchId)}/jobs?state=${state}&limit=500`;
    for (let offset = 0; ; offset += 500) {
      const { body } = await this.farm.request<{ jobs?: JobResource[] }>(
        'GET',
        `${base}&offset=${offset}`,
        undefined,
        unknownBatch(batchId),
      );
      const jobs = body?.jobs ?? [];
      yield* jobs;
      if (jobs.length < 500) return;
    }
  }

  /** The batch's results export as a stream (`jsonl` or `csv`). */
  results(batchId: string, format: string): Promise<Readable> {
    const path = `/v1/batches/${encodeURIComponent(batchId)}/results?format=${format}`;
    return this.farm.stream(path, unknownBatch(batchId));
  }
}

function unknownBatch(batchId: string): NotFound {
  return { field: 'batchId', reason: `the farm has no batch '${batchId}'` };
}
