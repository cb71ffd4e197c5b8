import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import {
  Body,
  ConflictException,
  Controller,
  Delete,
  Get,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { stringify } from 'csv-stringify';

import {
  BatchAppendSchema,
  BatchRequestSchema,
  type BatchResource,
  type BatchSummary,
  type JobResource,
  parsePayload,
} from '@satfarm/queue';

import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { RequestOwner } from '../auth/request-owner.decorator.js';
import { CoordinatorService } from '../coordinator/coordinator.service.js';
import { BatchOffsetConflict } from '../coordinator/sweep-coordinator.js';
import { openApiSchema } from '../docs/openapi-schema.js';
import { ApiKeyThrottlerGuard } from '../throttle/api-key-throttler.guard.js';
import { CSV_COLUMNS, csvRowOf } from './batch-results.format.js';
import { BatchResultsQuerySchema, ListBatchesQuerySchema, ListJobsQuerySchema } from './list-jobs.query.js';

/** `/v1/batches`: many jobs submitted and followed together (docs/batches.md). */
@ApiTags('batches')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard, ApiKeyThrottlerGuard)
@Controller('v1/batches')
export class BatchesController {
  constructor(@Inject(CoordinatorService) private readonly farm: CoordinatorService) {}

  @Post()
  @ApiOperation({
    summary:
      'Create a batch (1 to 1000 jobs, all or none): 201 { batchId, jobIds, size, existing }; a key used before answers 200 with its batch',
  })
  @ApiBody({ schema: openApiSchema(BatchRequestSchema) })
  async create(
    @Body() body: unknown,
    @RequestOwner() owner: string,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const { jobs, key, label } = parsePayload(BatchRequestSchema, body);
    const created = await conflictsAs409(() =>
      this.farm.coordinator.createBatch(jobs, {
        owner,
        ...(key === undefined ? {} : { key }),
        ...(label === undefined ? {} : { label }),
      }),
    );
    sendJson(res, created.existing ? 200 : 201, created);
  }

  @Post(':id/jobs')
  @ApiOperation({
    summary:
      'Grow a batch by up to 1000 jobs at `offset` (its size): 201; a part already in it answers 200 with its ids; another offset 409',
  })
  @ApiBody({ schema: openApiSchema(BatchAppendSchema) })
  async append(
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestOwner() owner: string,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const { offset, jobs } = parsePayload(BatchAppendSchema, body);
    const created = await conflictsAs409(() => this.farm.coordinator.appendToBatch(id, offset, jobs, owner));
    if (created === undefined) throw new NotFoundException(`no batch ${id}`);
    sendJson(res, created.existing ? 200 : 201, created);
  }

  @Get()
  @ApiOperation({ summary: 'Batches, newest first: { batches, offset, limit }' })
  @ApiQuery({ name: 'offset', required: false })
  @ApiQuery({ name: 'limit', required: false })
  async list(@Query() query: unknown): Promise<{ batches: BatchSummary[]; offset: number; limit: number }> {
    const { offset, limit } = parsePayload(ListBatchesQuerySchema, query, 'query');
    return { batches: await this.farm.coordinator.batches(offset, limit), offset, limit };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A batch: how many of its jobs are in each status, and its job ids' })
  async get(@Param('id') id: string): Promise<BatchResource> {
    const batch = await this.farm.coordinator.batch(id);
    if (batch === undefined) throw new NotFoundException(`no batch ${id}`);
    return batch;
  }

  @Get(':id/jobs')
  @ApiOperation({ summary: "A page of a batch's jobs in submission order, optionally in one state" })
  @ApiQuery({ name: 'state', required: false })
  @ApiQuery({ name: 'offset', required: false })
  @ApiQuery({ name: 'limit', required: false })
  async jobs(
    @Param('id') id: string,
    @Query() query: unknown,
  ): Promise<{ jobs: JobResource[]; offset: number; limit: number }> {
    const { state, offset, limit } = parsePayload(ListJobsQuerySchema, query, 'query');
    const jobs = await this.farm.coordinator.batchJobs(id, state, offset, limit);
    if (jobs === undefined) throw new NotFoundException(`no batch ${id}`);
    return { jobs, offset, limit };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Cancel every job of a batch that is not over; answers the batch' })
  async cancel(@Param('id') id: string): Promise<BatchSummary> {
    const batch = await this.farm.coordinator.cancelBatch(id);
    if (batch === undefined) throw new NotFoundException(`no batch ${id}`);
    return batch;
  }

  @Get(':id/results')
  @ApiOperation({
    summary: 'Every job of a batch, streamed: JSON Lines (one job resource a line) or CSV (one row a job)',
  })
  @ApiQuery({ name: 'format', required: false, enum: ['jsonl', 'csv'] })
  async results(@Param('id') id: string, @Query() query: unknown, @Res() res: ServerResponse): Promise<void> {
    const { format } = parsePayload(BatchResultsQuerySchema, query, 'query');
    const jobs = await this.farm.coordinator.batchResults(id);
    if (jobs === undefined) throw new NotFoundException(`no batch ${id}`);
    const csv = format === 'csv';
    res.statusCode = 200;
    res.setHeader('Content-Type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="batch-${id}.${format}"`);
    // Pulled a page at a time as the client reads: a batch of any size streams in bounded memory.
    const source = csv
      ? Readable.from(csvRows(jobs)).pipe(stringify({ header: true, columns: [...CSV_COLUMNS] }))
      : Readable.from(jsonLines(jobs));
    await pipeline(source, res).catch(() => res.destroy());
  }
}

/** Runs a batch change, answering a `BatchOffsetConflict` as 409 naming its field. */
async function conflictsAs409<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (err instanceof BatchOffsetConflict) {
      throw new ConflictException({
        statusCode: 409,
        error: 'Conflict',
        message: err.message,
        field: err.field,
        size: err.size,
      });
    }
    throw err;
  }
}

/** Answers with a status of the route's choosing (201 created, 200 already there). */
function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

async function* jsonLines(jobs: AsyncIterable<JobResource>): AsyncGenerator<string> {
  for await (const job of jobs) yield `${JSON.stringify(job)}\n`;
}

async function* csvRows(jobs: AsyncIterable<JobResource>): AsyncGenerator<Record<string, string>> {
  for await (const job of jobs) yield csvRowOf(job);
}
