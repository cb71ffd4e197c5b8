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
