import { createHash } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';

import { ApiKeys } from '../auth/api-keys.js';

/** Rate limits per API key (a hash of it, never the key itself), or per address without keys. */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const headers = req.headers as Record<string, string | undefined> | undefined;
    const key = ApiKeys.fromHeader(headers?.authorization);
    if (key !== undefined)
      return Promise.resolve(`key:${createHash('sha256').update(key).digest('hex').slice(0, 24)}`);
    return Promise.resolve(`ip:${typeof req.ip === 'string' ? req.ip : 'unknown'}`);
  }
}
