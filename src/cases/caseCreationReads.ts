import type pg from 'pg';
import { prepared } from '../db/sql.js';
import type { EventStore, ReadStreamResult } from '../eventStore/eventStore.js';
import { streamReadOfJson, streamTailJson } from '../eventStore/postgres/postgresEventStore.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { CURRENT_SNAPSHOTS_JSON, currentSnapshotsOfJson } from '../screening/snapshots/snapshotStore.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import {
  distinctUserIds,
  GROUP_COLUMNS,
  type Group,
  KEY_GROUP_ORDER,
  memberIdsAmongSql,
  toGroup,
} from '../workspace/workspaceStore.js';

/**
 * Everything `POST /v1/cases` checks before it writes, read in one statement (one round trip, one
 * snapshot): the case's group, which of the named users are its members, the current source
 * snapshots and, on the PostgreSQL event store (which shares the database), the first candidate
 * subject stream and whether the first candidate case stream is taken. On EventStoreDB the two
 * streams are read from the store by the caller.
 */
export interface CaseCreationReads {
  /** `groupId`'s group, or the key's default group; undefined when the key sees no such group. */
  group: Group | undefined;
  /** Those of the named users who are members of `group`. */
  groupMemberIds: string[];
  currentSnapshots: ReadySnapshot[];
  /** The first candidate subject stream, when read here. */
  firstSubject?: ReadStreamResult;
  /** Whether the first candidate case stream exists, when read here. */
  firstCaseTaken?: boolean;
}

export interface CaseCreationReadRequest {
  key: Pick<ApiKeyRecord, 'accountId' | 'groupIds'>;
  /** Already known to be among the key's groups. */
  groupId: string | null;
  userIds: readonly string[];
  firstSubjectStream: string;
  firstCaseStream: string;
}

export async function readForCaseCreation(
  pool: Pick<pg.Pool, 'query'>,
  store: Pick<EventStore, 'kind'>,
  request: CaseCreationReadRequest,
): Promise<CaseCreationReads> {
  const withStreams = store.kind === 'postgres';
  const streams = withStreams
    ? `, ${streamTailJson('$5', '-1')} AS subject_stream,
         EXISTS (SELECT 1 FROM es_streams WHERE stream_name = $6) AS case_taken`
    : '';
  const { rows } = await pool.query<
    Record<string, unknown> & {
      member_ids: string[];
      snapshots: Parameters<typeof currentSnapshotsOfJson>[0];
      subject_stream?: Parameters<typeof streamReadOfJson>[0];
      case_taken?: boolean;
    }
  >(
    prepared(
      `WITH chosen AS (
       SELECT ${GROUP_COLUMNS} FROM groups
        WHERE account_id = $1 AND id = ANY ($2::uuid[]) AND ($3::uuid IS NULL OR id = $3::uuid)
        ORDER BY ${KEY_GROUP_ORDER} LIMIT 1)
     SELECT g.*,
            ${memberIdsAmongSql('g.id', '$4')} AS member_ids,
            ${CURRENT_SNAPSHOTS_JSON} AS snapshots
            ${streams}
       FROM (SELECT 1) one LEFT JOIN chosen g ON true`,
      [
        request.key.accountId,
        request.key.groupIds,
        request.groupId,
        distinctUserIds(request.userIds),
        ...(withStreams ? [request.firstSubjectStream, request.firstCaseStream] : []),
      ],
    ),
  );
  const row = rows[0]!;
  return {
    group: row.id ? toGroup(row) : undefined,
    groupMemberIds: row.member_ids,
    currentSnapshots: currentSnapshotsOfJson(row.snapshots),
    ...(withStreams && {
      firstSubject: streamReadOfJson(row.subject_stream!),
      firstCaseTaken: row.case_taken!,
    }),
  };
}
