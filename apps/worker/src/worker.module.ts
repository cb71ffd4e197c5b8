import { type DynamicModule, Module } from '@nestjs/common';

import { HorizonWorkerService } from './horizon-worker.service.js';
import { WORKER_OPTIONS, type WorkerModuleOptions } from './worker.options.js';

/** A horizon worker with `slots` solver slots. */
@Module({})
export class WorkerModule {
  static forRoot(options: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      providers: [{ provide: WORKER_OPTIONS, useValue: options }, HorizonWorkerService],
      exports: [HorizonWorkerService],
    };
  }
}
