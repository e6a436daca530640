import pg from 'pg';

const INT8 = 20;
const NUMERIC = 1700;

/** int8 and numeric (milliseconds, sums) as JS numbers: every value here stays below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PgPoolOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** Connections this process keeps open. @default 10 */
  max?: number;
}

/** One pool per store; the ingest holds one of its connections per batch. */
export function createPgPool(opts: PgPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    types,
    application_name: 'svc-server',
    // A dead peer is noticed by TCP keepalive; a transaction left open by a stuck instance ends
    // after 30 s, so the account locks it holds cannot stall the other instances for longer.
    keepAlive: true,
    idle_in_transaction_session_timeout: 30_000,
  });
  // An idle connection that dies (server restart) must not crash the process; the next query
  // opens a new one.
  pool.on('error', (err) => console.error('svc-server: postgres connection lost:', err.message));
  return pool;
}

/** Runs `work` in one transaction on one connection; rolls back on any error. */
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
