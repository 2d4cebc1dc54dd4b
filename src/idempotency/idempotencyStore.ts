import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { inTransaction, prepared, type Queryable, type StatementRider } from '../db/sql.js';

export { fingerprintRequest, type RequestToFingerprint } from './fingerprint.js';
export {
  type IdempotencyKeyCheck,
  type IdempotencyKeyProblem,
  validateIdempotencyKey,
} from './idempotencyKey.js';

/** How long a key is kept: the spec promises at least 24 hours; twice that covers slow retry loops. */
export const IDEMPOTENCY_RETENTION = '48 hours';

export interface BeginRequest {
  apiKeyId: string;
  key: string;
  /** From fingerprintRequest; it covers method, path and body. */
  fingerprint: string;
  method: string;
  path: string;
  /** How long the caller may work before a retry may take the request over. */
  leaseMs: number;
}

export type BeginResult =
  /** Do the work, then completeRequest or abandonRequest with this leaseId. */
  | {
      kind: 'started';
      /**
       * True when an earlier attempt held the key and its lease ran out (it crashed or stalled): it
       * may have done part of the work, so the work must be idempotent (deterministic event ids).
       */
      recovered: boolean;
      leaseId: string;
    }
  /** The original response: send it again without doing the work. */
  | { kind: 'replay'; status: number; body: unknown }
  /** 409 `conflict`: the first request with this key is still running. */
  | { kind: 'in_flight' }
  /** 409 `idempotency_conflict`: the key was used for another method, path or body. */
  | { kind: 'mismatch' };

interface KeyRow {
  request_fingerprint: string;
  method: string;
  path: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: unknown;
  lease_live: boolean;
  expired: boolean;
}

const LEASE = `now() + $6::double precision * interval '1 millisecond'`;

/**
 * Claims (apiKeyId, key) for one request. The insert decides between concurrent first requests: the
 * primary key lets exactly one in, the others wait for it to commit and then find its row. An existing
 * row is read under FOR UPDATE so that two retries after a lease expiry cannot both take it over.
 * All times come from the database clock, so processes with skewed clocks agree on leases.
 * An expired row (past expires_at, not yet purged) behaves exactly as a purged one would.
 * With `rider` (the request's rate-limit hit), the first insert carries it and is made only if the
 * hit admits the request; the hit is settled before anything else is decided (`claimCarrying`).
 */
export async function beginRequest(
  pool: pg.Pool,
  input: BeginRequest,
  rider?: StatementRider<Promise<void>>,
): Promise<BeginResult> {
  if (!Number.isSafeInteger(input.leaseMs) || input.leaseMs <= 0) {
    throw new RangeError(`leaseMs ${input.leaseMs} is not a positive integer`);
  }
  const method = input.method.toUpperCase();
  const params = [input.apiKeyId, input.key, input.fingerprint, method, input.path, input.leaseMs];
  let insert = true;
  if (rider) {
    const carried = await claimCarrying(pool, rider, params);
    if (carried.leaseId) return { kind: 'started', recovered: false, leaseId: carried.leaseId };
    // Admitted but not inserted: the key has a row, which the loop resolves without inserting again.
    insert = !carried.admitted;
  }
  // The row can vanish between the insert and the locked read (abandoned or purged): then try again.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const leaseId = randomUUID();
    if (insert) {
      const inserted = await pool.query(
        prepared(`${CLAIM} ON CONFLICT (api_key_id, idempotency_key) DO NOTHING`, [...params, leaseId]),
      );
      if (inserted.rowCount === 1) return { kind: 'started', recovered: false, leaseId };
    }
    insert = true;
    const outcome = await inTransaction(pool, (client) => resolveExisting(client, params, leaseId));
    if (outcome) return outcome;
  }
  throw new Error(`Idempotency key ${input.key} kept changing under beginRequest`);
}

const CLAIM = `INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_fingerprint, method, path, state,
                                              lease_id, locked_until, created_at, expires_at)
               SELECT $1::uuid, $2::text, $3::text, $4::text, $5::text, 'in_flight', $7::uuid, ${LEASE}, now(), now() + interval '${IDEMPOTENCY_RETENTION}'`;

/**
 * The first claim in the statement of the request's rate-limit hit (one round trip and one commit
 * for both), inserted only when the hit `admits` the request: a refused request claims nothing.
 * Once the hit is settled (which throws the 401 or 429 it calls for), `leaseId` is set when the key
 * was claimed, `admitted` when it was not only because it already has a row.
 */
async function claimCarrying(
  pool: pg.Pool,
  rider: StatementRider<Promise<void>>,
  params: readonly unknown[],
): Promise<{ leaseId?: string; admitted: boolean }> {
  const leaseId = randomUUID();
  const shift = rider.params.length;
  const claim = CLAIM.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
  const admits = rider.admits ?? 'true';
  const { rows } = await pool.query(
    prepared(
      `WITH ${rider.with},
            claim AS (${claim} FROM ${rider.from} WHERE ${admits}
                      ON CONFLICT (api_key_id, idempotency_key) DO NOTHING RETURNING 1)
       SELECT ${rider.columns}, (${admits}) AS admitted, EXISTS (SELECT FROM claim) AS claimed
         FROM ${rider.from}`,
      [...rider.params, ...params, leaseId],
    ),
  );
  const row = rows[0]!;
  try {
    await rider.settle(row);
  } catch (error) {
    // Refused after all (a key revoked since the cache admitted it): the claim goes with the request.
    if (row.claimed) {
      const [apiKeyId, key] = params as [string, string];
      await abandonRequest(pool, { apiKeyId, key, leaseId }).catch(() => {});
    }
    throw error;
  }
  return row.claimed ? { leaseId, admitted: true } : { admitted: row.admitted === true };
}

async function resolveExisting(
  client: pg.PoolClient,
  params: unknown[],
  leaseId: string,
): Promise<BeginResult | null> {
  const [apiKeyId, key, fingerprint, method, path] = params;
  const { rows } = await client.query<KeyRow>(
    `SELECT request_fingerprint, method, path, state, response_status, response_body,
            coalesce(locked_until > now(), false) AS lease_live, expires_at <= now() AS expired
       FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2 FOR UPDATE`,
    [apiKeyId, key],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.expired) {
    await client.query(
      `UPDATE idempotency_keys
          SET request_fingerprint = $3, method = $4, path = $5, state = 'in_flight', response_status = NULL,
              response_body = NULL, lease_id = $7, locked_until = ${LEASE}, created_at = now(),
              completed_at = NULL, expires_at = now() + interval '${IDEMPOTENCY_RETENTION}'
        WHERE api_key_id = $1 AND idempotency_key = $2`,
      [...params, leaseId],
    );
    return { kind: 'started', recovered: false, leaseId };
  }
  if (row.request_fingerprint !== fingerprint || row.method !== method || row.path !== path) {
    return { kind: 'mismatch' };
  }
  if (row.state === 'completed') {
    return { kind: 'replay', status: row.response_status!, body: row.response_body };
  }
  if (row.lease_live) return { kind: 'in_flight' };
  await client.query(
    `UPDATE idempotency_keys SET lease_id = $3, locked_until = now() + $4::double precision * interval '1 millisecond'
      WHERE api_key_id = $1 AND idempotency_key = $2`,
    [apiKeyId, key, leaseId, params[5]],
  );
  return { kind: 'started', recovered: true, leaseId };
}

/**
 * Extends a started request's lease by `leaseMs` from now; false when the lease is no longer this
 * attempt's (a retry took the key over after it ran out, or the request was completed or released).
 */
export async function renewRequestLease(
  db: Queryable,
  input: { apiKeyId: string; key: string; leaseId: string; leaseMs: number },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE idempotency_keys SET locked_until = now() + $4::double precision * interval '1 millisecond'
      WHERE api_key_id = $1 AND idempotency_key = $2 AND lease_id = $3::uuid AND state = 'in_flight'`,
    [input.apiKeyId, input.key, input.leaseId, input.leaseMs],
  );
  return result.rowCount === 1;
}

export interface CompleteRequest {
  apiKeyId: string;
  key: string;
  status: number;
  /** Any JSON value; undefined is stored as SQL NULL and replays as null. */
  body: unknown;
  /**
   * The leaseId from beginRequest. When given, a caller whose lease was taken over stores nothing:
   * the new owner's response wins. Omit it only where no takeover is possible.
   */
  leaseId?: string;
}

/**
 * Stores the response of a started request so that retries replay it. 5xx responses are refused:
 * the spec lets clients retry an internal_error and expects the work to run again, so use
 * abandonRequest for those. Accepts a transaction client, so the response can commit together with
 * other writes of the work. Returns false when the row was no longer this caller's to complete.
 * jsonb keeps the body's value, not its spelling: replays may differ in key order and whitespace.
 */
export async function completeRequest(db: Queryable, input: CompleteRequest): Promise<boolean> {
  if (!Number.isInteger(input.status) || input.status < 100 || input.status > 499) {
    throw new RangeError(`Status ${input.status} is not stored: only 1xx to 4xx responses are replayed`);
  }
  const body = input.body === undefined ? null : JSON.stringify(input.body);
  const result = await db.query(
    prepared(
      `UPDATE idempotency_keys
          SET state = 'completed', response_status = $3, response_body = $4::jsonb, completed_at = now(),
              lease_id = NULL, locked_until = NULL
        WHERE api_key_id = $1 AND idempotency_key = $2 AND state = 'in_flight'
          AND ($5::uuid IS NULL OR lease_id = $5::uuid)`,
      [input.apiKeyId, input.key, input.status, body, input.leaseId ?? null],
    ),
  );
  return result.rowCount === 1;
}

export interface AbandonRequest {
  apiKeyId: string;
  key: string;
  /** As for completeRequest: a stale owner must not release the new owner's claim. */
  leaseId?: string;
}

/**
 * Releases a started request that produced no response worth replaying (5xx, or a 4xx found before
 * the work began), so that a retry starts at once instead of waiting for the lease. Safe even if the
 * work wrote something: a retry re-derives the same event ids. Returns false when nothing was released.
 */
export async function abandonRequest(db: Queryable, input: AbandonRequest): Promise<boolean> {
  const result = await db.query(
    `DELETE FROM idempotency_keys
      WHERE api_key_id = $1 AND idempotency_key = $2 AND state = 'in_flight'
        AND ($3::uuid IS NULL OR lease_id = $3::uuid)`,
    [input.apiKeyId, input.key, input.leaseId ?? null],
  );
  return result.rowCount === 1;
}

/**
 * Deletes rows past expires_at; returns how many. A row whose request still holds a live lease is
 * kept, so a purge never pulls a claim from under running work.
 */
export async function purgeExpired(db: Queryable, now: Date = new Date()): Promise<number> {
  const result = await db.query(
    `DELETE FROM idempotency_keys
      WHERE expires_at <= $1 AND (state = 'completed' OR locked_until <= $1)`,
    [now],
  );
  return result.rowCount ?? 0;
}
