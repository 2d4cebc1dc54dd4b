import type pg from 'pg';

/** A pool or a client inside a transaction: store functions work with either. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Runs `work` in one transaction on a dedicated client; rolls back on any error. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** True when `error` is PostgreSQL's unique violation (23505) of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === constraint;
}

/** True when `error` is PostgreSQL's foreign key violation (23503) of the named constraint. */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23503' && e.constraint === constraint;
}
