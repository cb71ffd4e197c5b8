import type { Redis } from 'ioredis';

import { type FarmKeys, HorizonCancelSchema } from '@satfarm/queue';

import { cancelAbortReason } from './horizon-abort.reason.js';

/**
 * Listens on the farm's cancel channel and aborts the horizons this worker holds among the ones
 * named: their processors' abort signals fire and the solvers die. Owns its subscriber
 * connection.
 */
export class HorizonCancelListener {
  constructor(
    private readonly subscriber: Redis,
    private readonly keys: FarmKeys,
    private readonly cancel: (horizonJobId: string, reason: string) => boolean,
  ) {}

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.keys.cancelChannel) return;
      const parsed = HorizonCancelSchema.safeParse(safeJson(text));
      if (!parsed.success) return;
      const reason = cancelAbortReason(parsed.data.decidedAt);
      for (const id of parsed.data.horizonJobIds) this.cancel(id, reason);
    });
    await this.subscriber.subscribe(this.keys.cancelChannel);
  }

  async close(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
