/**
 * A counting semaphore over local solver slots: at most `size` solver processes run at once,
 * however many sweeps share the pool.
 */
export class SlotPool {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  /** Slots lent to a portfolio's extra runs, newest last: the first to give way to a horizon. */
  private readonly spares: Array<() => void> = [];

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
    // A slot lent to a portfolio run goes back to the horizons the sweep wants.
    this.spares.pop()?.();
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

  /**
   * A slot no horizon waits for, lent to a portfolio's extra run: undefined when none is free.
   * `giveWay` is called when a horizon wants the slot back; the run must then end and release it.
   */
  acquireSpare(giveWay: () => void): (() => void) | undefined {
    if (this.free === 0 || this.waiting.length > 0) return undefined;
    this.free--;
    let lent = true;
    const reclaim = (): void => {
      if (!lent) return;
      lent = false;
      giveWay();
    };
    this.spares.push(reclaim);
    const release = this.releaser();
    return () => {
      lent = false;
      const i = this.spares.indexOf(reclaim);
      if (i >= 0) this.spares.splice(i, 1);
      release();
    };
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
