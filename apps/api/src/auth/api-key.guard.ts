import type { IncomingMessage } from 'node:http';

import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';

import { API_KEYS, ApiKeys } from './api-keys.js';

/** `/v1` routes: when `SATFARM_API_KEYS` is set, `Authorization: Bearer <key>` must name one. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@Inject(API_KEYS) private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.keys.required) return true;
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    const key = ApiKeys.fromHeader(request.headers.authorization);
    if (!this.keys.accepts(key)) {
      throw new UnauthorizedException(
        key === undefined ? 'Authorization: Bearer <key> required' : 'unknown API key',
      );
    }
    return true;
  }
}
