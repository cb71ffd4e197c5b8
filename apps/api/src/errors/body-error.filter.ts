import { type ArgumentsHost, Catch, HttpException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';

interface JsonResponse {
  status(code: number): JsonResponse;
  json(body: unknown): void;
}

/** What body-parser attaches to its errors (http-errors), or a JSON SyntaxError. */
interface BodyParserError {
  type?: string;
  limit?: number;
  message: string;
}

/**
 * A body the JSON parser refused (not JSON, not an object or array, too large, a bad encoding)
 * is answered like every other bad input, naming the field `(body)`:
 * `{ statusCode, error, message, field, issues }`. Other HTTP errors (401, 404, 429) keep their
 * answer, from Nest's own filter.
 */
@Catch(HttpException)
export class BodyErrorFilter extends BaseExceptionFilter {
  override catch(exception: HttpException, host: ArgumentsHost): void {
    const status = exception.getStatus();
    const cause = exception.cause as BodyParserError | undefined;
    const syntax = cause instanceof SyntaxError;
    const type = cause?.type ?? '';
    const limit = cause?.limit;
    if (
      cause === undefined ||
      !(syntax || /^(entity|encoding|charset)\./.test(type)) ||
      host.getType() !== 'http'
    ) {
      super.catch(exception, host);
      return;
    }
    const response = host.switchToHttp().getResponse<JsonResponse>();
    const reason =
      type === 'entity.too.large'
        ? `larger than the limit of ${limit ?? 'the server'} bytes`
        : type === 'entity.parse.failed' || syntax
          ? `not a JSON object: ${cause.message}`
          : cause.message;
    const field = '(body)';
    response.status(status).json({
      statusCode: status,
      error: status === 413 ? 'Payload Too Large' : 'Bad Request',
      message: `${field}: ${reason}`,
      field,
      issues: [{ field, reason }],
    });
  }
}
