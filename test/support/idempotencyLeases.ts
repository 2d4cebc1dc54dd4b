import type pg from 'pg';

/**
 * Runs out the lease of an in-flight idempotency key at once, as if its holder had stalled or died
 * past it, so a test never waits for a short real lease (which a busy machine may outlast before
 * the test looks, or not reach in time).
 */
export async function expireIdempotencyLease(pool: pg.Pool, apiKeyId: string, key: string): Promise<void> {
  const { rowCount } = await pool.query(
    `UPDATE idempotency_keys SET locked_until = now() - interval '1 second'
      WHERE api_key_id = $1 AND idempotency_key = $2 AND state = 'in_flight'`,
    [apiKeyId, key],
  );
  if (rowCount !== 1) throw new Error(`no in-flight idempotency key ${key} to expire`);
}
