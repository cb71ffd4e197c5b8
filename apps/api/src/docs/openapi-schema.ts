import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

/** The OpenAPI schema of a zod schema, for the `/docs` page (zod is the one source of truth). */
export function openApiSchema(schema: z.ZodType): SchemaObject {
  return z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    unrepresentable: 'any',
    io: 'input',
  }) as SchemaObject;
}
