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

/**
 * One pool per store; the ingest holds one of its connections per batch. A connection PostgreSQL
 * drops (`pg_terminate_backend`, a restart, a network fault) fails only the work on it, never the
 * process: every client gets an error listener as it connects (`pg` emits 'error' on checked-out
 * clients too, and an unheard 'error' event would end the process), the work sees its own failure,
 * and the client is released with the error so the pool discards it and opens a new one on demand.
 */
export function createPgPool(opts: PgPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    types,
    application_name: 'svc-server',
    // A dead peer is noticed by TCP keepalive; a transaction left open by a stuck instance ends
    // after 30 s, so the account locks it holds cannot stall the other instances for longer.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    idle_in_transaction_session_timeout: 30_000,
    // A server that accepts TCP but never answers (stopped, overloaded) fails a new connection
    // after 5 s instead of holding the request forever.
    connectionTimeoutMillis: 5_000,
  });
  // Heard, so a lost connection cannot crash the process; the failure reaches whoever uses it.
  pool.on('connect', (client) => client.on('error', () => {}));
  pool.on('error', idleLossLogger());
  return pool;
}

/**
 * Idle pooled connections closed by the server (a restart, `pg_terminate_backend`) are replaced on
 * demand: one line per burst, not one per connection.
 */
function idleLossLogger() {
  let lost = 0;
  let first = '';
  return (error: Error) => {
    if (lost++ === 0) {
      first = error.message;
      setTimeout(() => {
        console.error(
          `svc-server: PostgreSQL closed ${lost} idle pooled connection${lost === 1 ? '' : 's'} ` +
            `(${first}); new ones open on demand`,
        );
        lost = 0;
      }, 1000).unref();
    }
  };
}

/**
 * `pool.query` with a deadline (node-postgres's per-query `query_timeout`): against a server that
 * accepts TCP but answers nothing the query fails after `ms` (answered 503, as unavailable) and
 * the pool discards the connection, instead of the request waiting until the server wakes up.
 */
export function queryWithin<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  ms: number,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult<T>> {
  return pool.query<T>({ text, values, query_timeout: ms } as pg.QueryConfig);
}

/**
 * Runs `work` on one pooled connection within `ms` (the wait for a connection included): past it,
 * the call rejects with ETIMEDOUT (answered 503, as unavailable) and the connection is destroyed, so
 * a server that accepts TCP but answers nothing (stopped with SIGSTOP, a partition) cannot hold the
 * caller, and PostgreSQL rolls back whatever it had open once it reads again. `ms` of 0: no deadline.
 */
export function withDeadline<T>(
  pool: pg.Pool,
  ms: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let client: pg.PoolClient | undefined;
    let expired = false;
    const timer =
      ms > 0
        ? setTimeout(() => {
            expired = true;
            reject(
              Object.assign(new Error(`PostgreSQL did not answer within ${ms} ms`), {
                code: 'ETIMEDOUT',
              }),
            );
            // Fails the query in flight, so `work` ends and the pool discards the client.
            (client as pg.Client | undefined)?.connection.stream.destroy();
          }, ms)
        : undefined;
    const run = async () => {
      client = await pool.connect();
      if (expired) {
        client.release(); // timed out while waiting for a connection: nothing to run
        return undefined as T;
      }
      try {
        const result = await work(client);
        client.release();
        return result;
      } catch (error) {
        // Back with the error, so the pool discards it: it may have been cut or left mid-way.
        client.release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    };
    run().then(
      (result) => {
        clearTimeout(timer);
        if (!expired) resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}

/** `work` in one transaction on `client`; rolls back on any error. */
export async function transactionOn<T>(
  client: pg.PoolClient,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await rollBack(client, error);
    throw error;
  }
}

/** Queries and transactions on a pool, each within `deadlineMs` (see `withDeadline`). */
export interface PgDeadlineDb {
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

export const withinDeadline = (pool: pg.Pool, deadlineMs: number): PgDeadlineDb => ({
  query: (text, values) =>
    withDeadline(pool, deadlineMs, async (client) => (await client.query(text, values)).rows),
  transaction: (work) => withDeadline(pool, deadlineMs, (client) => transactionOn(client, work)),
});

/** ROLLBACK; resolves with `error` when that failed too (the connection is then unusable). */
export const rollBack = (client: pg.PoolClient, error: unknown): Promise<Error | undefined> =>
  client.query('ROLLBACK').then(
    () => undefined,
    () => (error instanceof Error ? error : new Error(String(error))),
  );
