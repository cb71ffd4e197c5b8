/**
 * The instances a worker parsed most recently, by job id: the horizons of one job usually land on
 * the same few workers, and parsing a large instance again for each horizon would be wasted work.
 */
export class ParsedInstanceCache {
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly capacity = 16) {}

  /** The cached instance of `key`, or `parse()`'s result, remembered as the newest entry. */
  getOrParse(key: string, parse: () => unknown): unknown {
    if (this.entries.has(key)) {
      const value = this.entries.get(key);
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const value = parse();
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
