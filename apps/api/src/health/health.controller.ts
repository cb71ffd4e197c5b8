import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';

import { describeRedisError } from '@satfarm/queue';

import { CoordinatorService } from '../coordinator/coordinator.service.js';

/** `/health`: readiness (Redis answers) and `/health/live`: liveness (the process serves). */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(HealthIndicatorService) private readonly indicators: HealthIndicatorService,
    @Inject(CoordinatorService) private readonly farm: CoordinatorService,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: 200 when Redis answers, 503 otherwise' })
  readiness() {
    return this.health.check([() => this.redis()]);
  }

  @Get('live')
  @ApiOperation({ summary: 'Liveness: 200 while the process serves requests' })
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  private async redis() {
    const check = this.indicators.check('redis');
    const started = performance.now();
    try {
      const answer = await withTimeout(this.farm.connection.ping(), 1000);
      return answer === 'PONG'
        ? check.up({ pingMs: Math.round(performance.now() - started) })
        : check.down({ message: answer });
    } catch (err) {
      return check.down({ message: describeRedisError(err) });
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
