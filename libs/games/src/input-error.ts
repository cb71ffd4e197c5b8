/**
 * Bad input from a user: names the field at fault and the reason. The CLI turns it into exit
 * code 2 and the API into HTTP 400; nothing is enqueued.
 */
export class InputError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'InputError';
  }
}

/**
 * An object key as a field name in an error: as it is when it reads like one, quoted as JSON
 * otherwise, so that an empty key, spaces or control characters still name the field plainly.
 */
export function fieldName(key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
}

/** The error of a key a format does not have. */
export function unknownField(key: string): InputError {
  return new InputError(fieldName(key), 'unknown field');
}
