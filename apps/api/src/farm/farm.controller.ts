import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type FarmOverview, FarmOverviewSchema } from '@satfarm/queue';

import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { CoordinatorService } from '../coordinator/coordinator.service.js';
import { openApiSchema } from '../docs/openapi-schema.js';
import { ApiKeyThrottlerGuard } from '../throttle/api-key-throttler.guard.js';

/** `/v1/farm`: queue depth, active solvers, workers and jobs in flight, read-only. */
@ApiTags('farm')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard, ApiKeyThrottlerGuard)
@Controller('v1/farm')
export class FarmController {
  constructor(@Inject(CoordinatorService) private readonly farm: CoordinatorService) {}

  @Get()
  @ApiOperation({ summary: 'The farm at a glance: queue depth, active solvers, workers, jobs in flight' })
  @ApiOkResponse({ schema: openApiSchema(FarmOverviewSchema) })
  overview(): Promise<FarmOverview> {
    return this.farm.runtime.overview();
  }
}
