import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

import { FarmMetrics } from './farm-metrics.js';

/** `/metrics`: Prometheus text exposition. */
@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(FarmMetrics) private readonly metrics: FarmMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics: satfarm_* and BullMQ queue counts' })
  exposition(): Promise<string> {
    return this.metrics.exposition();
  }
}
