/**
 * The farm's BullMQ queues: horizon jobs for the workers, and the workers' reports (started,
 * finished, failed) for the coordinator. Reports travel as jobs so that none is lost while no
 * coordinator runs: the next one to start consumes them.
 */
export const QueueName = {
  horizons: 'satfarm-horizons',
  reports: 'satfarm-reports',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/** BullMQ job names on the queues above. */
export const JobName = {
  horizon: 'horizon',
  started: 'started',
  finished: 'finished',
  failed: 'failed',
} as const;
