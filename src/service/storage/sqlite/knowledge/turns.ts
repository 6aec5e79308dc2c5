/**
 * Turns of the event loop for the index's write slices. A large file is written in slices of about 10 ms
 * with the event loop free in between; with several files written at once, each slice waiting on its own
 * `setImmediate` ran in the same turn as the others', so a request waited for every file's slice. Here
 * the slices of all files take turns: one slice a turn, in the order they asked, and requests are read
 * between any two.
 */
export class WriteTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves on a later turn of the event loop, where no other slice of this index runs. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) this.schedule();
    });
  }

  private schedule(): void {
    this.scheduled = true;
    // An immediate queued while immediates run waits for the next turn, after that turn's I/O.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()!();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}
