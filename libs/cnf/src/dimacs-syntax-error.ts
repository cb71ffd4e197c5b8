/** A DIMACS text that does not follow the format; `message` reads `line <line>: <reason>`. */
export class DimacsSyntaxError extends Error {
  override readonly name = 'DimacsSyntaxError';

  constructor(
    /** The 1-based line where the problem is. */
    readonly line: number,
    /** What is wrong, without the line number. */
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}
