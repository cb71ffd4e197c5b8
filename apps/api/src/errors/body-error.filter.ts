import { STATUS_CODES } from 'node:http';

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
 * A request refused before any handler ran is answered like every other bad input, naming the
 * field: `{ statusCode, error, message, field, issues }`. A body the JSON parser refused (not JSON,
 * not an object or array, too large, an unsupported charset or encoding) names `(body)`; a path
 * parameter Express could not percent-decode names the parameter. Other HTTP errors (401, 404,
 * 429) keep their answer, from Nest's own filter.
 */
@Catch(HttpException)
export class BodyErrorFilter extends BaseExceptionFilter {
  override catch(exception: HttpException, host: ArgumentsHost): void {
    const status = exception.getStatus();
    const cause = exception.cause as BodyParserError | undefined;
    const refused = cause === undefined || host.getType() !== 'http' ? undefined : refusal(cause);
    if (refused === undefined) {
      super.catch(exception, host);
      return;
    }
    const { field, reason } = refused;
    host
      .switchToHttp()
      .getResponse<JsonResponse>()
      .status(status)
      .json({
        statusCode: status,
        // body-parser's own status: 400, 413 (too large) or 415 (charset, encoding).
        error: STATUS_CODES[status] ?? 'Bad Request',
        message: `${field}: ${reason}`,
        field,
        issues: [{ field, reason }],
      });
  }
}

/** The field at fault and why, for an error of Express's request parsing; else undefined. */
function refusal(cause: BodyParserError): { field: string; reason: string } | undefined {
  if (cause instanceof URIError) {
    // Express names the raw value only in its message. Every path parameter of the API is `:id`.
    const raw = /^Failed to decode param '(.*)'$/s.exec(cause.message)?.[1];
    return {
      field: 'id',
      reason: `${raw === undefined ? 'not' : `'${raw}' is not`} a valid URL-encoded id`,
    };
  }
  const type = cause.type ?? '';
  const syntax = cause instanceof SyntaxError;
  if (!(syntax || /^(entity|encoding|charset)\./.test(type))) return undefined;
  const reason =
    type === 'entity.too.large'
      ? `larger than the limit of ${cause.limit ?? 'the server'} bytes`
      : type === 'entity.parse.failed' || syntax
        ? `not a JSON object: ${cause.message}`
        : cause.message;
  return { field: '(body)', reason };
}
