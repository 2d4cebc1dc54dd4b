import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DATASET_PATTERN } from './loadSnapshot.js';

/**
 * The publisher download list of `casescreen sources sync` (default `config/sources.json`, env
 * SOURCES_CONFIG, flag --config). Publishers move their files now and then, so the URLs live here
 * and not in code. Strict: a misspelt key is an error, not a silently ignored setting.
 */
const sourceSchema = z.strictObject({
  dataset: z.string().regex(DATASET_PATTERN, 'must be lowercase letters, digits, "_", "." or "-"'),
  format: z.string().min(1),
  urls: z.array(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })).min(1),
  /**
   * Where the publisher's date comes from for a format whose files state one: `file` (that date)
   * or `last-modified` (the newest HTTP Last-Modified of the URLs; the file's own date when a
   * response has no such header). A format whose files state none (OFAC's CSV set, the CSL) is
   * dated by Last-Modified whatever this says: there is no other date (syncSources.ts).
   */
  publishedAtFrom: z.enum(['file', 'last-modified']).default('file'),
  /** Load a set lacking companion files its format expects (`sources load --allow-partial`). */
  allowPartial: z.boolean().default(false),
  /** false keeps an entry in the file without syncing it (JSON has no comments). */
  enabled: z.boolean().default(true),
  comment: z.string().optional(),
});

const configSchema = z.strictObject({
  comment: z.string().optional(),
  sources: z.array(sourceSchema),
});

export type SourceConfig = z.output<typeof sourceSchema>;
export type SourcesConfig = z.output<typeof configSchema>;

export class SourcesConfigError extends Error {
  override readonly name = 'SourcesConfigError';
}

export async function readSourcesConfig(file: string): Promise<SourcesConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SourcesConfigError(`cannot read sources config ${file}: ${(error as Error).message}`);
  }
  return parseSourcesConfig(text, file);
}

export function parseSourcesConfig(text: string, file: string): SourcesConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SourcesConfigError(`sources config ${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new SourcesConfigError(`invalid sources config ${file}:\n  ${problems.join('\n  ')}`);
  }
  const datasets = parsed.data.sources.filter((s) => s.enabled).map((s) => s.dataset);
  const repeated = datasets.find((dataset, index) => datasets.indexOf(dataset) !== index);
  if (repeated) {
    throw new SourcesConfigError(
      `invalid sources config ${file}: dataset ${repeated} is enabled more than once`,
    );
  }
  return parsed.data;
}
