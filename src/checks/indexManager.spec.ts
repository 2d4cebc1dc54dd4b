import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { LoadedIndex } from '../screening/index/loadIndex.js';
import { ScreeningIndex } from '../screening/index/screeningIndex.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { IndexBuildError } from './failureReasons.js';
import { abortable, IndexManager, WaitAbortedError } from './indexManager.js';

const snap = (id: string) => ({ id }) as ReadySnapshot;

/** A pool whose current snapshots are `rows()`, counting the queries. */
function fakePool(rows: () => { id: string }[]) {
  const pool = {
    queries: 0,
    async query() {
      pool.queries++;
      return { rows: rows() };
    },
  };
  return pool;
}

/** Builds that finish when the test says so. */
function controlledLoads() {
  const builds: { ids: readonly string[]; resolve(): void; reject(error: Error): void }[] = [];
  const load = (_pool: pg.Pool, ids: readonly string[]) =>
    new Promise<LoadedIndex>((resolve, reject) => {
      builds.push({
        ids,
        resolve: () => resolve({ index: ScreeningIndex.build([]), snapshots: ids.map(snap), buildMs: 1 }),
        reject,
      });
    });
  return { builds, load };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('IndexManager', () => {
  it('shares one reading of the current snapshots within the refresh interval', async () => {
    const pool = fakePool(() => [{ id: 'a' }]);
    const manager = new IndexManager({ pool: pool as unknown as pg.Pool, refreshMs: 60_000 });
    await Promise.all([manager.currentSnapshots(), manager.currentSnapshots()]);
    await manager.currentSnapshots();
    expect(pool.queries).toBe(1);
    await manager.currentSnapshots({ fresh: true });
    expect(pool.queries).toBe(2);
    const uncached = new IndexManager({ pool: pool as unknown as pg.Pool, refreshMs: 0 });
    await uncached.currentSnapshots();
    await uncached.currentSnapshots();
    expect(pool.queries).toBe(4);
  });

  it('builds once for every job waiting on the first build', async () => {
    const { builds, load } = controlledLoads();
    const manager = new IndexManager({ pool: {} as pg.Pool, load });
    const current = [snap('a'), snap('b')];
    const waiting = Promise.all([1, 2, 3].map(() => manager.indexFor(current, ['a'])));
    await tick();
    expect(builds).toHaveLength(1);
    expect(builds[0]!.ids).toEqual(['a', 'b']);
    builds[0]!.resolve();
    const indexes = await waiting;
    expect(new Set(indexes).size).toBe(1);
    expect(await manager.indexFor(current, ['a', 'b'])).toBe(indexes[0]);
    expect(manager.stats()).toMatchObject({ builds: 1, snapshotIds: ['a', 'b'], building: false });
  });

  it('rebuilds when the set changes, serving covered jobs from the old index meanwhile, never two builds at once', async () => {
    const { builds, load } = controlledLoads();
    const manager = new IndexManager({ pool: {} as pg.Pool, load });
    const first = manager.indexFor([snap('a'), snap('b')], []);
    await tick();
    builds[0]!.resolve();
    const old = await first;

    // b replaced by c: a job needing only a is served at once by the old index; one needing c waits.
    const covered = await manager.indexFor([snap('a'), snap('c')], ['a']);
    expect(covered).toBe(old);
    expect(builds).toHaveLength(2);
    let newer: LoadedIndex | undefined;
    const needsC = manager.indexFor([snap('a'), snap('c')], ['c']).then((index) => {
      newer = index;
      return index;
    });
    // Yet another set while that build runs: it waits for the running build to finish first.
    const needsD = manager.indexFor([snap('a'), snap('d')], ['d']);
    await tick();
    expect(builds).toHaveLength(2);
    expect(newer).toBeUndefined();
    builds[1]!.resolve();
    expect((await needsC).snapshots.map((s) => s.id)).toEqual(['a', 'c']);
    await tick();
    expect(builds).toHaveLength(3);
    expect(builds[2]!.ids).toEqual(['a', 'd']);
    builds[2]!.resolve();
    expect((await needsD).snapshots.map((s) => s.id)).toEqual(['a', 'd']);
  });

  it('fails the waiting jobs when a build fails, and builds again for the next job', async () => {
    const { builds, load } = controlledLoads();
    const manager = new IndexManager({ pool: {} as pg.Pool, load });
    const waiting = manager.indexFor([snap('a')], ['a']);
    await tick();
    builds[0]!.reject(new Error('connection terminated'));
    await expect(waiting).rejects.toBeInstanceOf(IndexBuildError);
    const again = manager.indexFor([snap('a')], ['a']);
    await tick();
    expect(builds).toHaveLength(2);
    builds[1]!.resolve();
    await expect(again).resolves.toMatchObject({ snapshots: [{ id: 'a' }] });
    expect(manager.stats()).toMatchObject({ builds: 1, failedBuilds: 1 });
  });

  it('stops a wait when its signal aborts; the build goes on', async () => {
    const { builds, load } = controlledLoads();
    const manager = new IndexManager({ pool: {} as pg.Pool, load });
    const stop = new AbortController();
    const waiting = manager.indexFor([snap('a')], ['a'], stop.signal);
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(WaitAbortedError);
    builds[0]!.resolve();
    await expect(manager.indexFor([snap('a')], ['a'])).resolves.toBeDefined();
    expect(builds).toHaveLength(1);
    await expect(abortable(Promise.resolve(1), stop.signal)).rejects.toBeInstanceOf(WaitAbortedError);
  });
});
