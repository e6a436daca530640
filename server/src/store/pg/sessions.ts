import type { BoardStore } from '../board-types.ts';
import { iso } from '../rows.ts';
import type { PgDeadlineDb } from './pool.ts';

type Sessions = Pick<
  BoardStore,
  | 'insertAdminToken'
  | 'listAdminTokens'
  | 'revokeAdminToken'
  | 'findAdminToken'
  | 'insertSession'
  | 'findSession'
  | 'deleteSession'
>;

/**
 * Admin tokens (sha256 of the value only) and the board's browser sessions (sha256 of the cookie)
 * on PostgreSQL, shared by every instance: a session opened at one works at all, and revoking a
 * token ends its sessions everywhere at once.
 */
export function createPgSessions(db: PgDeadlineDb): Sessions {
  return {
    insertAdminToken: async (t) =>
      (
        await db.query<{ id: number }>(
          'INSERT INTO admin_tokens (name, lookup, created_at) VALUES ($1, $2, $3) RETURNING id',
          [t.name, t.lookup, t.createdAt],
        )
      )[0]!.id,
    listAdminTokens: async () =>
      (
        await db.query<{
          id: number;
          name: string;
          created_at: number;
          revoked_at: number | null;
        }>('SELECT id, name, created_at, revoked_at FROM admin_tokens ORDER BY id')
      ).map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: iso(r.created_at),
        revokedAt: r.revoked_at === null ? null : iso(r.revoked_at),
      })),
    revokeAdminToken: (id, at) =>
      db.transaction(async (client) => {
        const changed = await client.query(
          'UPDATE admin_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
          [at, id],
        );
        await client.query('DELETE FROM board_sessions WHERE token_id = $1', [id]);
        return changed.rowCount === 1;
      }),
    findAdminToken: async (lookup) =>
      (
        await db.query<{ id: number; name: string }>(
          'SELECT id, name FROM admin_tokens WHERE lookup = $1 AND revoked_at IS NULL',
          [lookup],
        )
      )[0],
    insertSession: (s) =>
      db.transaction(async (client) => {
        await client.query('DELETE FROM board_sessions WHERE expires_at <= $1', [s.createdAt]);
        await client.query(
          `INSERT INTO board_sessions (lookup, token_id, created_at, expires_at)
           VALUES ($1, $2, $3, $4)`,
          [s.lookup, s.tokenId, s.createdAt, s.expiresAt],
        );
      }),
    findSession: async (lookup, now) =>
      (
        await db.query<{ tokenId: number; tokenName: string }>(
          `SELECT s.token_id AS "tokenId", t.name AS "tokenName" FROM board_sessions s
           JOIN admin_tokens t ON t.id = s.token_id
           WHERE s.lookup = $1 AND s.expires_at > $2 AND t.revoked_at IS NULL`,
          [lookup, now],
        )
      )[0],
    deleteSession: async (lookup) => {
      await db.query('DELETE FROM board_sessions WHERE lookup = $1', [lookup]);
    },
  };
}
