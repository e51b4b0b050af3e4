import "server-only";

/** A first-come, first-served lock for async work. */
export class Lock {
  private tail: Promise<void> = Promise.resolve();

  /**
   * Resolves with `release` (safe to call more than once) once every earlier holder has released.
   * Rejects with `timeout()`'s error if that takes more than `timeoutMs`; the turn is then passed on unused.
   */
  acquire(timeoutMs: number, timeout: () => Error): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => released);
    return new Promise((resolve, reject) => {
      let waiting = true;
      const timer = setTimeout(() => {
        waiting = false;
        reject(timeout());
        void acquired.then((turn) => turn());
      }, timeoutMs);
      void acquired.then((turn) => {
        if (!waiting) return;
        clearTimeout(timer);
        resolve(turn);
      });
    });
  }
}
