import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';

import { JobRequestSchema, type JobResource, parsePayload } from '@satfarm/queue';

import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { RequestOwner } from '../auth/request-owner.decorator.js';
import { CoordinatorService } from '../coordinator/coordinator.service.js';
import { openApiSchema } from '../docs/openapi-schema.js';
import { ApiKeyThrottlerGuard } from '../throttle/api-key-throttler.guard.js';
import { ListJobsQuerySchema } from './list-jobs.query.js';

/** `/v1/jobs`: submit, read, list and cancel jobs (docs/farm.md#http). */
@ApiTags('jobs')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard, ApiKeyThrottlerGuard)
@Controller('v1/jobs')
export class JobsController {
  constructor(@Inject(CoordinatorService) private readonly farm: CoordinatorService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Submit a job; answers 201 { id }' })
  @ApiBody({ schema: openApiSchema(JobRequestSchema) })
  async create(@Body() body: unknown, @RequestOwner() owner: string): Promise<{ id: string }> {
    const request = parsePayload(JobRequestSchema, body);
    const { jobIds } = await this.farm.coordinator.submit([request], owner);
    return { id: jobIds[0]! };
  }

  @Get()
  @ApiOperation({ summary: 'List jobs, newest first, optionally in one state' })
  @ApiQuery({ name: 'state', required: false })
  @ApiQuery({ name: 'offset', required: false })
  @ApiQuery({ name: 'limit', required: false })
  async list(@Query() query: unknown): Promise<{ jobs: JobResource[]; offset: number; limit: number }> {
    const { state, offset, limit } = parsePayload(ListJobsQuerySchema, query, 'query');
    return { jobs: await this.farm.coordinator.list(state, offset, limit), offset, limit };
  }

  @Get(':id')
  @ApiOperation({
    summary: "A job: the CLI's report plus id, createdAt, finishedAt, error; render: the drawing",
  })
  async get(@Param('id') id: string): Promise<JobResource> {
    const resource = await this.farm.coordinator.resource(id, true);
    if (resource === undefined) throw new NotFoundException(`no job ${id}`);
    return resource;
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Cancel a job: its horizons stop on every worker' })
  async cancel(@Param('id') id: string): Promise<JobResource> {
    const resource = await this.farm.coordinator.cancel(id);
    if (resource === undefined) throw new NotFoundException(`no job ${id}`);
    return resource;
  }
}
