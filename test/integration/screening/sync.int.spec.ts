import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { captureOutput, runCliCaptured } from '../../support/cli.js';
import { screeningData } from '../../support/screeningData.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * `casescreen sources sync` end to end: a local HTTP server plays the publishers, serving the real
 * lists of SCREENING_DATA_DIR (the repository's small fixtures where that folder is absent), with
 * Last-Modified headers and a URL that answers 404.
 */

const data = screeningData('sources sync of the real lists (fixtures are served instead)');
const fixture = (...segments: string[]) => path.resolve('test/fixtures/screening', ...segments);
const ofacFixtureSet = fixture('ofac-csv', 'set');

/** What the publishers serve: the real files when present, else the fixtures. */
const lists = data.available
  ? {
      ofacDir: data.file('ofac', 'sdn_2021-07'),
      ofacEntities: 8976,
      unOld: data.file('un', 'UN_consolidated_2025-04.xml'),
      unOldEntities: 877,
      unOldPublished: '2025-04-19T23:00:04.625Z',
      unNew: data.file('un', 'UN_consolidated_2026-02.xml'),
      unNewEntities: 1003,
      unNewPublished: '2026-02-27T00:00:09.554Z',
    }
  : {
      ofacDir: ofacFixtureSet,
      ofacEntities: 7,
      unOld: fixture('un-xml', 'snapshots', 'list-v1.xml'),
      unOldEntities: 3,
      unOldPublished: '2026-01-05T00:00:09.000Z',
      unNew: fixture('un-xml', 'snapshots', 'list-v2.xml'),
      unNewEntities: 3,
      unNewPublished: '2026-02-10T00:00:09.000Z',
    };
const OFAC_FILES = ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'];

interface Route {
  file: string;
  lastModified?: string;
}

/** A publisher stand-in: serves the routes it is given, 404 for anything else, and logs requests. */
class Publisher {
  readonly routes = new Map<string, Route>();
  readonly requests: string[] = [];
  private server: Server | undefined;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = request.url ?? '/';
      this.requests.push(url);
      const route = this.routes.get(url);
      if (!route) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      readFile(route.file).then(
        (body) => {
          response.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-length': body.length,
            ...(route.lastModified && { 'last-modified': route.lastModified }),
          });
          response.end(body);
        },
        () => response.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  url(route: string): string {
    return `${this.base}${route}`;
  }
}

interface SyncJson {
  ok: boolean;
  sources: Record<string, unknown>[];
}

describe('casescreen sources sync', () => {
  let db: TestDatabase;
  let dir: string;
  const publisher = new Publisher();

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'sources-sync-'));
    await publisher.start();
  });
  afterAll(async () => {
    await publisher.stop();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (argv: string[], env: Record<string, string> = {}) =>
    runCliCaptured(argv, { DATABASE_URL: db.url, ...env });

  let configCount = 0;
  async function configFile(sources: Record<string, unknown>[]): Promise<string> {
    const file = path.join(dir, `sources-${++configCount}.json`);
    await writeFile(file, JSON.stringify({ sources }, null, 2));
    return file;
  }

  async function syncJson(config: string): Promise<{ code: number; stderr: string; out: SyncJson }> {
    const result = await cli(['sources', 'sync', '--config', config, '--json']);
    expect(result.stdout, result.stderr).toMatch(/^\{/);
    return { code: result.code, stderr: result.stderr, out: JSON.parse(result.stdout) as SyncJson };
  }

  async function snapshotsOf(dataset: string) {
    const result = await cli(['sources', 'snapshots', '--dataset', dataset, '--json']);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { snapshots: Record<string, unknown>[] }).snapshots;
  }

  /**
   * Serves an OFAC set under `/<prefix>/`, each file with its own Last-Modified: the real one by
   * default, the small fixture set where only the dating of a set is tested (loading the real set
   * again adds nothing there but seconds).
   */
  function serveOfac(
    prefix: string,
    lastModified: Record<string, string | undefined>,
    dir: string = lists.ofacDir,
  ) {
    for (const name of OFAC_FILES) {
      publisher.routes.set(`/${prefix}/${name}`, {
        file: path.join(dir, name),
        lastModified: lastModified[name],
      });
    }
    return OFAC_FILES.map((name) => publisher.url(`/${prefix}/${name}`));
  }

  // The newest Last-Modified is alt.csv's, not the first URL's: the set is dated by its newest file.
  const ofacDates = {
    'sdn.csv': 'Fri, 30 Jul 2021 14:02:11 GMT',
    'add.csv': 'Thu, 29 Jul 2021 09:00:00 GMT',
    'alt.csv': 'Sat, 31 Jul 2021 08:30:00 GMT',
    'sdn_comments.csv': 'Mon, 19 Jul 2021 10:00:00 GMT',
  };

  let mainConfig: string;

  it('downloads and loads every enabled source; one answering 404 fails alone, with exit code 1', async () => {
    const ofacUrls = serveOfac('ofac', ofacDates);
    publisher.routes.set('/un/consolidated.xml', {
      file: lists.unOld,
      // Not used: the UN list states its own date and this source keeps publishedAtFrom: file.
      lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT',
    });
    mainConfig = await configFile([
      { dataset: 'sync_ofac', format: 'ofac-csv', urls: ofacUrls, publishedAtFrom: 'last-modified' },
      { dataset: 'sync_un', format: 'un-xml', urls: [publisher.url('/un/consolidated.xml')] },
      { dataset: 'sync_gone', format: 'un-xml', urls: [publisher.url('/moved/consolidated.xml')] },
      { dataset: 'sync_off', format: 'un-xml', urls: [publisher.url('/never')], enabled: false },
    ]);

    const { code, stderr, out } = await syncJson(mainConfig);
    expect(code).toBe(1);
    expect(out.ok).toBe(false);
    expect(out.sources).toHaveLength(3);
    const [ofac, un, gone] = out.sources;
    expect(ofac).toMatchObject({
      ok: true,
      unchanged: false,
      dataset: 'sync_ofac',
      format: 'ofac-csv',
      version: 1,
      entityCount: lists.ofacEntities,
      publishedAt: new Date(ofacDates['alt.csv']).toISOString(),
    });
    expect(ofac!.downloads).toEqual(
      OFAC_FILES.map((name, i) => ({
        url: ofacUrls[i],
        bytes: expect.any(Number),
        lastModified: new Date(ofacDates[name as keyof typeof ofacDates]).toISOString(),
      })),
    );
    expect(un).toMatchObject({
      ok: true,
      unchanged: false,
      dataset: 'sync_un',
      version: 1,
      entityCount: lists.unOldEntities,
      publishedAt: lists.unOldPublished,
    });
    expect(gone).toEqual({
      dataset: 'sync_gone',
      format: 'un-xml',
      ok: false,
      error: `${publisher.url('/moved/consolidated.xml')}: HTTP 404 Not Found`,
    });
    expect(stderr).toContain(`sync_gone: failed: ${publisher.url('/moved/consolidated.xml')}: HTTP 404`);
    expect(stderr).toMatch(/sync_ofac: loaded version 1 \(snap_[0-9a-f]{32}, \d+ entities\)/);

    // The disabled source was never asked for; the failed one left no snapshot behind.
    expect(publisher.requests).not.toContain('/never');
    expect(await snapshotsOf('sync_gone')).toEqual([]);
    const status = JSON.parse((await cli(['sources', 'status', '--json'])).stdout) as {
      datasets: { dataset: string; version: number; publishedAt: string }[];
    };
    expect(status.datasets.map((d) => [d.dataset, d.version])).toEqual([
      ['sync_ofac', 1],
      ['sync_un', 1],
    ]);
    // Staleness of the OFAC set counts from the newest Last-Modified.
    expect(status.datasets[0]!.publishedAt).toBe(new Date(ofacDates['alt.csv']).toISOString());
  });

  it('reports a second sync of unchanged files as unchanged, without a new version', async () => {
    const before = {
      ofac: await snapshotsOf('sync_ofac'),
      un: await snapshotsOf('sync_un'),
    };
    const requestsBefore = publisher.requests.length;
    const text = await cli(['sources', 'sync', '--config', mainConfig]);
    expect(text.code).toBe(1);
    // Everything was downloaded again: unchanged is decided on the bytes, not on headers.
    expect(publisher.requests.length - requestsBefore).toBe(OFAC_FILES.length + 2);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `sync_ofac: Unchanged: sync_ofac version 1 (${before.ofac[0]!.id}) already has this content`,
      `sync_un: Unchanged: sync_un version 1 (${before.un[0]!.id}) already has this content`,
      `sync_gone: FAILED: ${publisher.url('/moved/consolidated.xml')}: HTTP 404 Not Found`,
    ]);
    expect(text.stderr).toContain(`sync_ofac: unchanged, version 1 (${before.ofac[0]!.id}) stays current`);

    const { out } = await syncJson(mainConfig);
    expect(out.sources.slice(0, 2)).toMatchObject([
      { ok: true, unchanged: true, snapshotId: before.ofac[0]!.id, version: 1 },
      { ok: true, unchanged: true, snapshotId: before.un[0]!.id, version: 1 },
    ]);
    expect(await snapshotsOf('sync_ofac')).toEqual(before.ofac);
    expect(await snapshotsOf('sync_un')).toEqual(before.un);
  });

  it('loads what the publishers changed as new versions, and a fixed URL makes the exit code 0', async () => {
    publisher.routes.set('/un/consolidated.xml', { file: lists.unNew });
    publisher.routes.set('/moved/consolidated.xml', { file: lists.unOld });

    const { code, out } = await syncJson(mainConfig);
    expect(code).toBe(0);
    expect(out.ok).toBe(true);
    expect(out.sources).toMatchObject([
      { dataset: 'sync_ofac', unchanged: true, version: 1 },
      {
        dataset: 'sync_un',
        unchanged: false,
        version: 2,
        entityCount: lists.unNewEntities,
        publishedAt: lists.unNewPublished,
      },
      { dataset: 'sync_gone', unchanged: false, version: 1, entityCount: lists.unOldEntities },
    ]);
    expect((await snapshotsOf('sync_un')).map((s) => [s.version, s.current])).toEqual([
      [2, true],
      [1, false],
    ]);
  });

  it('keeps the current version when a publisher serves a malformed file, and names its URL and line', async () => {
    const [current] = await snapshotsOf('sync_un');
    publisher.routes.set('/un/consolidated.xml', { file: fixture('un-xml', 'snapshots', 'malformed.xml') });
    const config = await configFile([
      { dataset: 'sync_un', format: 'un-xml', urls: [publisher.url('/un/consolidated.xml')] },
    ]);
    const { code, out } = await syncJson(config);
    expect(code).toBe(1);
    expect(out.sources).toEqual([
      {
        dataset: 'sync_un',
        format: 'un-xml',
        ok: false,
        // The URL, not the temporary file it was downloaded to (deleted by now).
        error: expect.stringMatching(
          new RegExp(`^${publisher.url('/un/consolidated.xml').replaceAll('.', '\\.')}:27: malformed XML`),
        ),
      },
    ]);
    expect(out.sources[0]!.error).not.toContain('casescreen-sync-');
    const after = await snapshotsOf('sync_un');
    expect(after[0]).toMatchObject({
      status: 'failed',
      version: null,
      current: false,
      error: expect.stringContaining(`${publisher.url('/un/consolidated.xml')}:27: malformed XML`),
    });
    expect(after[1]).toMatchObject({ id: current!.id, version: 2, current: true });
  });

  it('skips, without failing, a download published no later than the current version', async () => {
    const current = (await snapshotsOf('sync_un')).find((s) => s.current);
    expect(current).toMatchObject({ version: 2, publishedAt: lists.unNewPublished });
    // A publisher (or a stale mirror) serving last year's list again.
    publisher.routes.set('/un/consolidated.xml', { file: lists.unOld });
    const config = await configFile([
      { dataset: 'sync_un', format: 'un-xml', urls: [publisher.url('/un/consolidated.xml')] },
    ]);
    const { code, out, stderr } = await syncJson(config);
    expect(code).toBe(0);
    expect(out).toEqual({
      ok: true,
      sources: [
        {
          dataset: 'sync_un',
          format: 'un-xml',
          ok: true,
          downloads: [expect.objectContaining({ url: publisher.url('/un/consolidated.xml') })],
          skipped: expect.stringMatching(
            new RegExp(
              `^the list is published ${lists.unOldPublished}, before the current sync_un version 2 `,
            ),
          ),
        },
      ],
    });
    expect(stderr).toContain('sync_un: skipped: the list is published');
    const text = await cli(['sources', 'sync', '--config', config]);
    expect(text).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^sync_un: Skipped: the list is published /),
    });
    const after = await snapshotsOf('sync_un');
    expect(after.find((s) => s.current)).toMatchObject({ id: current!.id, version: 2 });

    // The same date with other bytes is no news either; the same bytes are unchanged, as before.
    const sameDate = serveOfac('ofac-samedate', ofacDates);
    const ofacConfig = await configFile([
      {
        dataset: 'sync_ofac',
        format: 'ofac-csv',
        urls: sameDate.slice(0, 1),
        publishedAtFrom: 'last-modified',
        allowPartial: true,
      },
    ]);
    publisher.routes.get('/ofac-samedate/sdn.csv')!.lastModified = ofacDates['alt.csv'];
    const equal = (await syncJson(ofacConfig)).out.sources[0]!;
    expect(equal).toMatchObject({
      ok: true,
      skipped: expect.stringMatching(/, not after the current sync_ofac version 1 /),
    });
  });

  it('refuses a set whose files state no date when a response has no Last-Modified, naming the URL', async () => {
    const urls = serveOfac('ofac-undated', { ...ofacDates, 'sdn_comments.csv': undefined }, ofacFixtureSet);
    const config = await configFile([
      { dataset: 'sync_ofac_undated', format: 'ofac-csv', urls, publishedAtFrom: 'last-modified' },
    ]);
    const { code, out } = await syncJson(config);
    expect(code).toBe(1);
    expect(out.sources).toEqual([
      {
        dataset: 'sync_ofac_undated',
        format: 'ofac-csv',
        ok: false,
        error: `the ofac-csv files state no publication date, and staleness is measured from it; ${urls[3]} sent no Last-Modified header either, so nothing was loaded`,
      },
    ]);
    expect(await snapshotsOf('sync_ofac_undated')).toEqual([]);
    const text = await cli(['sources', 'sync', '--config', config]);
    expect(text).toMatchObject({
      code: 1,
      stdout: `sync_ofac_undated: FAILED: the ofac-csv files state no publication date, and staleness is measured from it; ${urls[3]} sent no Last-Modified header either, so nothing was loaded\n`,
    });
  });

  it('dates a list whose file states no date by Last-Modified without being told to', async () => {
    const lastModified = 'Wed, 05 Nov 2025 06:00:00 GMT';
    publisher.routes.set('/csl/consolidated.csv', {
      file: fixture('csl-csv', 'consolidated.csv'),
      lastModified,
    });
    const config = await configFile([
      { dataset: 'sync_csl', format: 'csl-csv', urls: [publisher.url('/csl/consolidated.csv')] },
    ]);
    const { code, out } = await syncJson(config);
    expect(code).toBe(0);
    expect(out.sources).toMatchObject([
      { ok: true, dataset: 'sync_csl', version: 1, publishedAt: new Date(lastModified).toISOString() },
    ]);
  });

  it('refuses an OFAC set with files missing unless the source says allowPartial, and records the partial load', async () => {
    const urls = serveOfac('ofac-incomplete', ofacDates, ofacFixtureSet).filter((url) =>
      url.endsWith('/sdn.csv'),
    );
    const source = { dataset: 'sync_ofac_incomplete', format: 'ofac-csv', urls };
    const { code, out } = await syncJson(await configFile([source]));
    expect(code).toBe(1);
    expect(out.sources).toEqual([
      {
        dataset: 'sync_ofac_incomplete',
        format: 'ofac-csv',
        ok: false,
        error:
          'incomplete ofac-csv input: without alt.csv (the aliases), add.csv (the addresses), sdn_comments.csv (the rest of long remarks); add their URLs to the source, or set "allowPartial": true',
      },
    ]);
    expect(await snapshotsOf('sync_ofac_incomplete')).toEqual([]);

    const allowed = await syncJson(await configFile([{ ...source, allowPartial: true }]));
    expect(allowed.code).toBe(0);
    expect(allowed.out.sources).toMatchObject([
      {
        ok: true,
        version: 1,
        publishedAt: new Date(ofacDates['sdn.csv']).toISOString(),
        missingFiles: ['alt.csv', 'add.csv', 'sdn_comments.csv'],
      },
    ]);
  });

  it('makes a new version when the publisher re-issues the same files under a newer Last-Modified', async () => {
    const urls = serveOfac('ofac-restamped', ofacDates, ofacFixtureSet);
    const config = await configFile([
      { dataset: 'sync_ofac_restamped', format: 'ofac-csv', urls, publishedAtFrom: 'last-modified' },
    ]);
    const first = (await syncJson(config)).out.sources[0]!;
    expect(first).toMatchObject({ ok: true, version: 1 });

    const restamped = 'Mon, 02 Aug 2021 12:00:00 GMT';
    publisher.routes.get('/ofac-restamped/sdn.csv')!.lastModified = restamped;
    const { code, out } = await syncJson(config);
    expect(code).toBe(0);
    expect(out.sources[0]).toMatchObject({
      unchanged: false,
      version: 2,
      contentHash: first.contentHash,
      entityCount: first.entityCount,
      publishedAt: new Date(restamped).toISOString(),
    });

    // An older date than the current one's is no news.
    publisher.routes.get('/ofac-restamped/sdn.csv')!.lastModified = ofacDates['sdn.csv'];
    publisher.routes.get('/ofac-restamped/alt.csv')!.lastModified = 'Sun, 01 Aug 2021 00:00:00 GMT';
    expect((await syncJson(config)).out.sources[0]).toMatchObject({ unchanged: true, version: 2 });
  });

  it('says an interrupted sync was interrupted, not "This operation was aborted"', async () => {
    const interrupted = new AbortController();
    interrupted.abort();
    const stdout = captureOutput();
    const stderr = captureOutput();
    const code = await runCli(['sources', 'sync', '--config', mainConfig], {
      stdout,
      stderr,
      env: { DATABASE_URL: db.url },
      signal: interrupted.signal,
    });
    expect({ code, stdout: stdout.text(), stderr: stderr.text() }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: sync interrupted: the source in progress was not loaded and nothing of it became current; sources synced before it stay loaded\n',
    });
  });

  it('reports an unknown format per source, reads SOURCES_CONFIG, and refuses an invalid config', async () => {
    const typo = await configFile([
      { dataset: 'sync_typo', format: 'un-xlm', urls: [publisher.url('/un/consolidated.xml')] },
    ]);
    const requestsBefore = publisher.requests.length;
    const result = await cli(['sources', 'sync'], { SOURCES_CONFIG: typo });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^sync_typo: FAILED: unknown format "un-xlm"; known formats: .*un-xml/);
    expect(publisher.requests.length).toBe(requestsBefore);

    const none = await configFile([
      { dataset: 'sync_off', format: 'un-xml', urls: [publisher.url('/never')], enabled: false },
    ]);
    expect(await cli(['sources', 'sync', '--config', none])).toMatchObject({
      code: 0,
      stdout: `No enabled sources in ${none}\n`,
    });

    const invalid = await configFile([{ dataset: 'sync_bad', format: 'un-xml', url: 'https://example.org' }]);
    const refused = await cli(['sources', 'sync', '--config', invalid]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: invalid sources config ${invalid}:`);
    expect(refused.stderr).toContain('sources.0: Unrecognized key: "url"');

    const missing = path.join(dir, 'absent.json');
    expect(await cli(['sources', 'sync', '--config', missing])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`error: cannot read sources config ${missing}`),
    });
  });
});
