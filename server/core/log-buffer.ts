/**
 * Where the log's lines go: gathered in memory and written asynchronously, a batch at a time
 * (64 kB, or what has come within 100 ms), so that no request waits for a write and few writes
 * are made. An asynchronous write hands its bytes to a thread, which cost 60-300 µs of the event
 * loop's time per write on a busy 2-core machine: more than the cheapest call costs in all, were
 * it one per request. (pino's sonic-boom buffers too, but measures its whole buffer again for
 * every line it adds.) A line is encoded into the batch's buffer as it comes, and no string is
 * kept until the batch is written: kept lines outlived the young generation and cost the garbage
 * collector more than making them did.
 *
 * flush() writes everything gathered so far; close() does, and stops. If the process exits
 * without close() (a crash), what is gathered is written synchronously as it exits.
 */
import fs from 'node:fs';

const BATCH_BYTES = 64 * 1024;
const BATCH_MS = 100;
/** Room left in a batch under which it is written at once: a request line is shorter. */
const MAX_LINE_SLACK = 1024;
/** A full pipe or socket (EAGAIN): tried again after this pause. */
const RETRY_MS = 10;

export class LogBuffer {
  /** The batch being gathered: `size` bytes of `chunk`. */
  private chunk = Buffer.allocUnsafe(BATCH_BYTES);
  private size = 0;
  /** The write under way, if any: the next waits for it, so lines keep their order. */
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private broken = false;
  private closed = false;
  private readonly ownsFd: boolean;
  private readonly fd: number;
  private readonly onExit = () => this.flushSync();

  /** A file descriptor (1: standard output), or a file's path, opened for appending. */
  constructor(destination: number | string) {
    this.ownsFd = typeof destination === 'string';
    this.fd = typeof destination === 'string' ? fs.openSync(destination, 'a') : destination;
    process.on('exit', this.onExit);
  }

  /** pino's stream interface: one line, newline included. */
  write(line: string): boolean {
    if (this.broken) return true;
    // After close(): a last line (a job stopping late) goes straight out, or nowhere if the file is closed.
    if (this.closed) {
      if (!this.ownsFd) this.writeSync(Buffer.from(line));
      return true;
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a line that might not fit starts the next batch.
    if (this.size + line.length * 3 > this.chunk.length) {
      this.writeOut();
      if (line.length * 3 > this.chunk.length) {
        this.writeOut(Buffer.from(line));
        return true;
      }
    }
    this.size += this.chunk.write(line, this.size);
    if (this.size >= BATCH_BYTES - MAX_LINE_SLACK) this.writeOut();
    else this.timer ??= setTimeout(() => this.writeOut(), BATCH_MS).unref();
    return true;
  }

  /** Resolves once every line written so far is out (pino's logger.flush calls it with a callback). */
  flush(done?: (error?: Error) => void): Promise<void> {
    this.writeOut();
    const out = this.writing ?? Promise.resolve();
    if (done) out.then(() => done(), done);
    return out;
  }

  /** Writes what is left and stops gathering; a file opened by path is closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    process.off('exit', this.onExit);
    if (this.ownsFd) fs.closeSync(this.fd);
  }

  /** The gathered lines, written before the process ends (a write under way is left to finish). */
  flushSync(): void {
    if (this.size > 0 && !this.broken) this.writeSync(this.take());
  }

  private writeSync(chunk: Buffer): void {
    try {
      for (let at = 0; at < chunk.length; ) at += fs.writeSync(this.fd, chunk, at);
    } catch (error) {
      this.stop(error as Error);
    }
  }

  /** Nowhere to write to any more (a closed standard output): said once on standard error, and the lines dropped; the log must never stop the app. */
  private stop(error: Error): void {
    if (this.broken) return;
    this.broken = true;
    try {
      process.stderr.write(`The log cannot be written any more (${error.message}); its lines are dropped.\n`);
    } catch {
      // Standard error is gone too.
    }
  }

  /** The batch gathered so far; the next one gathers in a buffer of its own (this one is being written). */
  private take(): Buffer {
    const chunk = this.chunk.subarray(0, this.size);
    this.chunk = Buffer.allocUnsafe(BATCH_BYTES);
    this.size = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    return chunk;
  }

  /** Starts writing the gathered lines (or one line too long for a batch), after the write under way. */
  private writeOut(chunk?: Buffer): void {
    if (this.broken) return;
    if (!chunk) {
      if (this.size === 0) return;
      chunk = this.take();
    }
    const before = this.writing;
    const out: Promise<void> = (before ? before.then(() => this.send(chunk)) : this.send(chunk)).finally(() => {
      if (this.writing === out) this.writing = undefined;
    });
    this.writing = out;
  }

  /** The whole chunk, in as many writes as the destination takes; on an error the log stops (it must never stop the app). */
  private send(chunk: Buffer): Promise<void> {
    return new Promise((resolve) => {
      const from = (at: number) => {
        if (at >= chunk.length || this.broken) return resolve();
        fs.write(this.fd, chunk, at, chunk.length - at, null, (error, written) => {
          if (error && error.code === 'EAGAIN') setTimeout(() => from(at), RETRY_MS);
          else if (error) {
            this.stop(error);
            resolve();
          } else from(at + written);
        });
      };
      from(0);
    });
  }
}
