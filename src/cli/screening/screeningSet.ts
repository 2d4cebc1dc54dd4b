import type pg from 'pg';
import { loadConfig } from '../../config.js';
import { CHECK_TYPES, type CheckType, topicsForCheckType } from '../../screening/checkTypes.js';
import { type LoadedIndex, loadScreeningIndex, readySnapshots } from '../../screening/index/loadIndex.js';
import type { ScreeningMatch } from '../../screening/index/screeningIndex.js';
import type { ScreeningProfile } from '../../screening/scoring/profiles.js';
import type { ScreeningSubject } from '../../screening/scoring/query.js';
import {
  currentSnapshots,
  type ReadySnapshot,
  SnapshotNotReadyError,
  type SourceSnapshot,
} from '../../screening/snapshots/snapshotStore.js';
import { formatDuration, freshness } from '../../screening/snapshots/staleness.js';
import { CliInputError } from '../commandSupport.js';
import { type CliIo, clockOf } from '../io.js';
import type { ScreenInput } from './screenFlags.js';

/**
 * What `screen` searches: the snapshots in the database (the current one of every dataset, or the
 * `--snapshot` ones) and the in-memory index it builds of them itself, so that it works whether or
 * not the service runs and answers exactly what a check against those snapshots would.
 */

export interface ScreeningSet {
  loaded: LoadedIndex;
  /** The check types screened. */
  checkTypes: CheckType[];
  /** Check types left out by default because no snapshot provides them (never requested ones). */
  missingCheckTypes: CheckType[];
}

class NothingToScreenError extends Error {}

/** Runs `openScreening`, turning "nothing to screen against" into its message and exit code 1. */
export async function withScreening(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
  command: (set: ScreeningSet) => Promise<number>,
): Promise<number> {
  let set: ScreeningSet;
  try {
    set = await openScreening(pool, io, input, profile);
  } catch (error) {
    if (!(error instanceof NothingToScreenError)) throw error;
    io.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  return command(set);
}

/** The matches of one subject, at most `--limit` (else the profile's maximum). */
export function search(
  set: ScreeningSet,
  subject: ScreeningSubject,
  input: ScreenInput,
  profile: ScreeningProfile,
): ScreeningMatch[] {
  return set.loaded.index.search(subject, { profile, checkTypes: set.checkTypes, limit: input.limit });
}

/** What is searched, and with which profile: the header of a screening's output. */
export function describeScreening(set: ScreeningSet, profile: ScreeningProfile, input: ScreenInput): string {
  const { snapshots, buildMs, index } = set.loaded;
  const limit = input.limit ?? profile.maxMatches;
  const searched = snapshots.map((s) => `${s.dataset} v${s.version} (${s.id})`).join(', ');
  return [
    `Profile ${profile.id}: threshold ${profile.threshold}, at most ${limit} matches; check types ${set.checkTypes.join(', ')}`,
    `Searched ${searched}`,
    `Index of ${index.stats().entities} entities built in ${(buildMs / 1000).toFixed(1)} s`,
    '',
  ].join('\n');
}

/**
 * The snapshots to screen against and their index. Candidates are the `--snapshot` ones or the
 * current snapshot of every dataset, narrowed to the profile's datasets. Each check type named in
 * `--check-types` needs at least one of them holding entities with its topics, or the command
 * fails: a missing list must never read as "no matches". Without `--check-types`, every check type
 * some candidate provides is screened, and the others are named in a warning (and in the JSON), so
 * that a database with sanctions lists only can be screened without spelling that out; when no
 * candidate provides any check type the command fails all the same. Only snapshots providing a
 * screened check type are indexed. Stale snapshots are screened (an evaluator or an investigation
 * may well want last month's list) with a warning, where the service would refuse them.
 */
async function openScreening(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
): Promise<ScreeningSet> {
  const explicit = input.snapshot.length > 0;
  const candidates = explicit ? await givenSnapshots(pool, input.snapshot) : await currentSnapshots(pool);
  if (candidates.length === 0) {
    throw new NothingToScreenError(
      'no source snapshot is loaded, so there is nothing to screen against (casescreen sources load or sources sync)',
    );
  }
  const inProfile = profile.datasets
    ? candidates.filter((snapshot) => profile.datasets!.includes(snapshot.dataset))
    : candidates;
  const providing = (type: CheckType) =>
    inProfile.filter((snapshot) =>
      topicsForCheckType(type).some((topic) => (snapshot.countsByTopic?.[topic] ?? 0) > 0),
    );
  const requested = input.checkTypes ?? [...CHECK_TYPES];
  const unprovided = requested.filter((type) => providing(type).length === 0);
  const checkTypes = requested.filter((type) => !unprovided.includes(type));
  const where = `${explicit ? 'none of the given snapshots' : 'no current source snapshot'}${
    profile.datasets ? ` of the datasets of profile ${profile.id} (${profile.datasets.join(', ')})` : ''
  }`;
  const describe = (types: readonly CheckType[]) =>
    types.map((type) => `${type} (topics ${topicsForCheckType(type).join(', ')})`).join('; ');
  if (unprovided.length > 0 && (input.checkTypes !== undefined || checkTypes.length === 0)) {
    throw new NothingToScreenError(
      `${where} provides check type ${describe(unprovided)}: nothing to screen against (load a list with those topics${
        input.checkTypes ? ', or leave the type out of --check-types' : ''
      })`,
    );
  }
  if (unprovided.length > 0) {
    io.stderr.write(
      `warning: not screening ${unprovided.join(', ')}: ${where} provides it (give --check-types to make that an error)\n`,
    );
  }
  const searched = inProfile.filter((snapshot) =>
    checkTypes.some((type) => providing(type).includes(snapshot)),
  );
  for (const snapshot of candidates) {
    if (explicit && !searched.includes(snapshot)) {
      io.stderr.write(
        `note: ${describeSnapshot(snapshot)} is not searched: ${
          inProfile.includes(snapshot)
            ? 'it provides none of the check types screened'
            : `profile ${profile.id} leaves its dataset out`
        }\n`,
      );
    }
  }
  warnStale(io, searched);
  const loaded = await loadScreeningIndex(pool, { snapshotIds: searched.map((snapshot) => snapshot.id) });
  return { loaded, checkTypes, missingCheckTypes: unprovided };
}

async function givenSnapshots(pool: pg.Pool, ids: readonly string[]): Promise<ReadySnapshot[]> {
  try {
    return await readySnapshots(pool, ids);
  } catch (error) {
    if (error instanceof SnapshotNotReadyError) throw new CliInputError(`--snapshot: ${error.message}`);
    throw error;
  }
}

/** The staleness rule and limit of the service (SOURCE_STALE_AFTER), so that both say the same. */
function warnStale(io: CliIo, snapshots: readonly ReadySnapshot[]): void {
  const staleAfterMs = loadConfig(io.env).sourceStaleAfterMs;
  const now = clockOf(io)();
  for (const snapshot of snapshots) {
    const { ageMs, stale } = freshness(snapshot, now, staleAfterMs);
    if (!stale) continue;
    const why =
      ageMs === null
        ? 'no publication date, so its age is unknown; load it again with --published-at'
        : `published ${formatDuration(ageMs)} ago, over ${formatDuration(staleAfterMs)}`;
    io.stderr.write(
      `warning: ${describeSnapshot(snapshot)} is stale (${why}); the service refuses checks against it\n`,
    );
  }
}

function describeSnapshot(snapshot: SourceSnapshot): string {
  return `${snapshot.dataset} version ${snapshot.version ?? '-'} (${snapshot.id})`;
}
