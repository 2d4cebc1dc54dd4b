import {
  type Credentials,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  StreamNotFoundError,
} from '@eventstore/db-client';
import { v4 } from 'uuid';
import { mapReadError } from './clientErrors.js';

/**
 * EventStoreDB has no instance id a client can read (node ids change with the cluster's members),
 * so the adapter writes one into the store on first use: the id of the first event of this stream.
 * It lives and dies with the store's data: a restored backup keeps it, a new or wiped server gets a
 * new one. A `$` stream, so the port's feed never shows it; writing it needs the rights that reading
 * `$all` already needs (admins by default).
 */
export const STORE_IDENTITY_STREAM = '$casescreen-storeIdentity';
const STORE_IDENTITY_EVENT_TYPE = 'StoreIdentityAssigned';

/** `appendCredentials`: see EsdbEventStoreOptions (they keep the client off its batch-append path). */
export async function readOrAssignStoreId(
  client: EventStoreDBClient,
  appendCredentials?: Credentials,
): Promise<string> {
  const existing = await firstEventId(client);
  if (existing) return existing;
  try {
    await client.appendToStream(
      STORE_IDENTITY_STREAM,
      [
        jsonEvent({
          id: v4(),
          type: STORE_IDENTITY_EVENT_TYPE,
          data: { assignedAt: new Date().toISOString() },
        }),
      ],
      { expectedRevision: NO_STREAM, ...(appendCredentials && { credentials: appendCredentials }) },
    );
  } catch (error) {
    // Another process assigned it between the read and this append: its id holds.
    if (!(error instanceof EsdbWrongExpectedVersionError)) throw mapReadError(error);
  }
  const assigned = await firstEventId(client);
  if (!assigned) throw new Error(`EventStoreDB accepted ${STORE_IDENTITY_STREAM} but it reads as empty`);
  return assigned;
}

async function firstEventId(client: EventStoreDBClient): Promise<string | null> {
  let first: string | null = null;
  try {
    // Drained to its end, never left early: a gRPC read left half-read stays open, and the client's
    // dispose() waits for it forever.
    for await (const { event } of client.readStream(STORE_IDENTITY_STREAM, {
      fromRevision: START,
      direction: FORWARDS,
      maxCount: 1,
      requiresLeader: true,
    })) {
      first ??= event?.id ?? null;
    }
  } catch (error) {
    if (error instanceof StreamNotFoundError) return null;
    throw mapReadError(error);
  }
  return first;
}
