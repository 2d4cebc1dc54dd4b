import { createHash } from 'node:crypto';
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

/**
 * A small statement of another concern carried by a read, to spare it a round trip of its own: the
 * read puts `with` among its common table expressions, selects `columns` from `from` beside its own
 * and hands the row to `settle` before it uses its own result. The rider's SQL numbers its parameters
 * from $1; the read numbers its own after them. A read that cannot carry it runs it alone
 * (`runRiderAlone`); either way `settle` sees the row once.
 */
export interface StatementRider<T = unknown> {
  with: string;
  from: string;
  columns: string;
  params: readonly unknown[];
  /**
   * A condition over `from` that holds when the request may go on (a hit within the limit): a write
   * carrying the rider makes itself conditional on it, so a refused request writes nothing.
   */
  admits?: string;
  settle(row: Record<string, unknown>): T;
}

/** The rider as a statement of its own. */
export async function runRiderAlone<T>(db: Queryable, rider: StatementRider<T>): Promise<T> {
  const { rows } = await db.query(
    prepared(`WITH ${rider.with} SELECT ${rider.columns} FROM ${rider.from}`, rider.params),
  );
  return rider.settle(rows[0]!);
}

const preparedNames = new Map<string, string>();

/**
 * A hot-path statement as one each connection prepares once and then only binds and executes: for
 * a small statement, parsing and planning are much of the server's work (the case read with its
 * rate-limit hit: 0.29–0.47 ms a query prepared against 0.56–0.83 ms not, docs/benchmarks.md). The
 * name is a hash of the text, so one text is one prepared statement on every connection. For texts
 * the code writes (parameters in `values`), never for text with data in it: every distinct text
 * stays prepared on every connection for its lifetime.
 */
export function prepared(text: string, values: readonly unknown[]): pg.QueryConfig {
  let name = preparedNames.get(text);
  if (name === undefined) {
    name = `cs_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return { name, text, values: [...values] };
}
