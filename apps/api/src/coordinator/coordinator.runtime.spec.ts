import { describe, expect, it } from 'vitest';

import { mergeExpositions } from './coordinator.runtime.js';

describe(mergeExpositions.name, () => {
  it('keeps each metric family’s HELP and TYPE once, with the samples of every queue under it', () => {
    const queue = (name: string): string =>
      [
        '# HELP bullmq_job_count Number of jobs in the queue by state',
        '# TYPE bullmq_job_count gauge',
        `bullmq_job_count{queue="${name}", state="active"} 1`,
        '# HELP bullmq_job_failed_total Total number of failed jobs',
        '# TYPE bullmq_job_failed_total counter',
        `bullmq_job_failed_total{queue="${name}"} 0`,
      ].join('\n');
    const sut = mergeExpositions([queue('a'), queue('b')]).split('\n');
    expect(sut.filter((l) => l.startsWith('# TYPE bullmq_job_count'))).toHaveLength(1);
    expect(sut.indexOf('bullmq_job_count{queue="b", state="active"} 1')).toBeLessThan(
      sut.indexOf('# HELP bullmq_job_failed_total Total number of failed jobs'),
    );
    expect(sut.filter((l) => l.startsWith('bullmq_job_failed_total'))).toHaveLength(2);
  });
});
