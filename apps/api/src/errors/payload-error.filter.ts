import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';

import { InputError } from '@satfarm/games';
import { PayloadError } from '@satfarm/queue';

interface JsonResponse {
  status(code: number): JsonResponse;
  json(body: unknown): void;
}

/**
 * Bad input (a body that fails its schema, an instance its game cannot parse) becomes 400 with
 * the fields at fault: `{ statusCode, error, message, field, issues: [{ field, reason }] }`.
 */
@Catch(PayloadError, InputError)
export class PayloadErrorFilter implements ExceptionFilter {
  catch(error: PayloadError | InputError, host: ArgumentsHost): void {
    const issues =
      error instanceof PayloadError ? error.issues : [{ field: error.field, reason: error.reason }];
    host.switchToHttp().getResponse<JsonResponse>().status(HttpStatus.BAD_REQUEST).json({
      statusCode: 400,
      error: 'Bad Request',
      message: error.message,
      field: issues[0]?.field,
      issues,
    });
  }
}
