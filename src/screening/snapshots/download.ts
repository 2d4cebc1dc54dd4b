import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface Downloaded {
  url: string;
  path: string;
  bytes: number;
  /** The response's Last-Modified header, when it has a valid one. */
  lastModified: Date | undefined;
}

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

/** Publisher files reach a few hundred MB (OpenSanctions); a stuck transfer must still end. */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

/**
 * Streams `url` into `dir` under the URL's file name (`…/sdn.csv` -> `sdn.csv`: formats such as
 * `ofac-csv` recognise their files by name), never holding the body in memory. Fails on any status
 * other than 2xx.
 */
export async function downloadFile(
  url: string,
  dir: string,
  options: { fileName?: string; signal?: AbortSignal } = {},
): Promise<Downloaded> {
  const signals = [AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.any(signals), redirect: 'follow' });
  } catch (error) {
    throw new DownloadError(`${url}: ${describe(error)}`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    throw new DownloadError(`${url}: HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  const file = path.join(dir, options.fileName ?? fileNameOf(url));
  let bytes = 0;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  try {
    await pipeline(body, createWriteStream(file));
  } catch (error) {
    throw new DownloadError(`${url}: transfer failed after ${bytes} bytes: ${describe(error)}`);
  }
  const header = response.headers.get('last-modified');
  const lastModified = header ? new Date(header) : undefined;
  return {
    url,
    path: file,
    bytes,
    lastModified: lastModified && !Number.isNaN(lastModified.getTime()) ? lastModified : undefined,
  };
}

/** The last path segment of the URL, reduced to safe characters; `download` when there is none. */
export function fileNameOf(url: string): string {
  const raw = new URL(url).pathname.split('/').at(-1) ?? '';
  let segment = raw;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    // a malformed escape: keep the raw segment, reduced below like any other
  }
  const safe = segment.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return safe || 'download';
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause instanceof Error ? `${message} (${cause.message})` : message;
}
