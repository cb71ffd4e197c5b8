import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type BatchResource, BatchRequestSchema, parsePayload } from '@satfarm/queue';

import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { CoordinatorService } from '../coordinator/coordinator.service.js';
import { openApiSchema } from '../docs/openapi-schema.js';
import { ApiKeyThrottlerGuard } from '../throttle/api-key-throttler.guard.js';

/** `/v1/batches`: many jobs in one request, followed together. */
@ApiTags('batches')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard, ApiKeyThrottlerGuard)
@Controller('v1/batches')
export class BatchesController {
  constructor(@Inject(CoordinatorService) private readonly farm: CoordinatorService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Submit jobs together (all or none); answers { batchId, jobIds }' })
  @ApiBody({ schema: openApiSchema(BatchRequestSchema) })
  async create(@Body() body: unknown): Promise<{ batchId: string; jobIds: string[] }> {
    const { jobs } = parsePayload(BatchRequestSchema, body);
    const { batchId, jobIds } = await this.farm.coordinator.submit(jobs, true);
    return { batchId: batchId!, jobIds };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A batch: its jobs and how many are in each status' })
  async get(@Param('id') id: string): Promise<BatchResource> {
    const batch = await this.farm.coordinator.batch(id);
    if (batch === undefined) throw new NotFoundException(`no batch ${id}`);
    return batch;
  }
}
