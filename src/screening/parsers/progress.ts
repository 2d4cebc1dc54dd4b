import { stat } from 'node:fs/promises';
import type { ParseOptions } from '../model/listedEntity.js';

/** A report every 1 MiB read keeps a CLI progress line lively without flooding it. */
const REPORT_EVERY_BYTES = 1 << 20;

/**
 * Counts entities and bytes while a format reads its files and passes `ParseProgress` to
 * `options.onProgress` at a modest rate: each time another MiB has been read, and once at the
 * end of every file. Bytes count over all the files of one parse, so a multi-file set (OFAC CSV)
 * reports one rising total.
 */
export class ProgressTracker {
  private entities = 0;
  private completedBytes = 0;
  private lastReportedAt = 0;

  constructor(
    private readonly onProgress: ParseOptions['onProgress'],
    private readonly bytesTotal: number,
  ) {}

  /** A tracker for `files`, their sizes summed up front. */
  static async forFiles(files: string[], options: ParseOptions | undefined): Promise<ProgressTracker> {
    let total = 0;
    for (const file of files) total += (await stat(file)).size;
    return new ProgressTracker(options?.onProgress, total);
  }

  get entityCount(): number {
    return this.entities;
  }

  entity(): void {
    this.entities++;
  }

  /** `bytesRead` so far within `file`, the current one. */
  read(file: string, bytesRead: number): void {
    const total = this.completedBytes + bytesRead;
    if (total - this.lastReportedAt >= REPORT_EVERY_BYTES) this.report(file, total);
  }

  /** `file` was read to its end (`size` bytes). */
  fileDone(file: string, size: number): void {
    this.completedBytes += size;
    this.report(file, this.completedBytes);
  }

  private report(file: string, bytesRead: number): void {
    this.lastReportedAt = bytesRead;
    this.onProgress?.({ file, bytesRead, bytesTotal: this.bytesTotal, entities: this.entities });
  }
}
