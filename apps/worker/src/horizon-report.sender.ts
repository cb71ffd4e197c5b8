import type { Queue } from 'bullmq';

import { type HorizonReport, horizonJobId, REPORT_JOB_OPTIONS } from '@satfarm/queue';

/** Sends a worker's reports to the coordinator through the reports queue (durably). */
export class HorizonReportSender {
  constructor(private readonly reports: Queue) {}

  async send(report: HorizonReport, attempt: number, run?: number): Promise<void> {
    // One id per horizon run, kind and attempt: a report sent twice is stored once.
    const id = `${horizonJobId(report.jobId, report.t, run, report.sibling, report.cube)}.${report.kind}.a${attempt}`;
    await this.reports.add(report.kind, report, { ...REPORT_JOB_OPTIONS, jobId: id });
  }
}
