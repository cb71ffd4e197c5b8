import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

import { ApiKeys } from './api-keys.js';

/**
 * Who a request comes from, for fair share (docs/farm.md, "Fair share"): a short digest of its API
 * key (never the key itself, which would then sit in Redis), or `anonymous` without one.
 */
export function ownerOfKey(key: string | undefined): string {
  return key === undefined ? 'anonymous' : createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The request's owner (`ownerOfKey` of its Authorization header). */
export const RequestOwner = createParamDecorator((_: unknown, context: ExecutionContext): string =>
  ownerOfKey(ApiKeys.fromHeader(context.switchToHttp().getRequest<IncomingMessage>().headers.authorization)),
);
