/**
 * A counting semaphore over local solver slots: at most `size` solver processes run at once,
 * however many sweeps share the pool.
 */
export class SlotPool {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`slot count must be a positive integer, got ${size}`);
    this.free = size;
  }

  /** Waits for a slot; rejects with the signal's reason if it is aborted first. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  /** Slots in use now. */
  get busy(): number {
    return this.size - this.free;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
