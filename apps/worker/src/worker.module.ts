import { type DynamicModule, Module } from '@nestjs/common';

import { HorizonWorkerThreadService } from './horizon-worker-thread.service.js';
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

  /** The same worker in a thread of its own (`HorizonWorkerThreadService`): for an API process's slots. */
  static inThread(options: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      providers: [{ provide: WORKER_OPTIONS, useValue: options }, HorizonWorkerThreadService],
    };
  }
}
