import type Database from 'better-sqlite3';
import type { BoardStore } from '../board-types.ts';
import { iso } from '../rows.ts';
import type { WhenFree } from './writes-when-free.ts';

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
 * Admin tokens (sha256 of the value only) and the board's browser sessions (sha256 of the cookie);
 * writes go through `write`, which waits for another process's write lock without blocking.
 */
export function createSqliteSessions(db: Database.Database, write: WhenFree): Sessions {
  const q = {
    insertToken: db.prepare('INSERT INTO admin_tokens (name, lookup, created_at) VALUES (?, ?, ?)'),
    tokens: db.prepare('SELECT id, name, created_at, revoked_at FROM admin_tokens ORDER BY id'),
    revoke: db.prepare(
      'UPDATE admin_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ),
    endSessions: db.prepare('DELETE FROM board_sessions WHERE token_id = ?'),
    token: db.prepare('SELECT id, name FROM admin_tokens WHERE lookup = ? AND revoked_at IS NULL'),
    purge: db.prepare('DELETE FROM board_sessions WHERE expires_at <= ?'),
    insertSession: db.prepare(
      'INSERT INTO board_sessions (lookup, token_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    ),
    session: db.prepare(
      `SELECT s.token_id AS tokenId, t.name AS tokenName FROM board_sessions s
       JOIN admin_tokens t ON t.id = s.token_id
       WHERE s.lookup = ? AND s.expires_at > ? AND t.revoked_at IS NULL`,
    ),
    deleteSession: db.prepare('DELETE FROM board_sessions WHERE lookup = ?'),
  };
  const revoke = db.transaction((id: number, at: number) => {
    const changed = q.revoke.run(at, id).changes === 1;
    q.endSessions.run(id);
    return changed;
  });
  const insertSession = db.transaction(
    (s: { lookup: string; tokenId: number; createdAt: number; expiresAt: number }) => {
      q.purge.run(s.createdAt);
      q.insertSession.run(s.lookup, s.tokenId, s.createdAt, s.expiresAt);
    },
  );
  return {
    insertAdminToken: (t) =>
      write(() => Number(q.insertToken.run(t.name, t.lookup, t.createdAt).lastInsertRowid)),
    listAdminTokens: () =>
      (
        q.tokens.all() as {
          id: number;
          name: string;
          created_at: number;
          revoked_at: number | null;
        }[]
      ).map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: iso(r.created_at),
        revokedAt: r.revoked_at === null ? null : iso(r.revoked_at),
      })),
    revokeAdminToken: (id, at) => write(() => revoke.immediate(id, at)),
    findAdminToken: (lookup) => q.token.get(lookup) as { id: number; name: string } | undefined,
    insertSession: (s) => write(() => insertSession.immediate(s)),
    findSession: (lookup, now) =>
      q.session.get(lookup, now) as { tokenId: number; tokenName: string } | undefined,
    deleteSession: async (lookup) => {
      await write(() => q.deleteSession.run(lookup));
    },
  };
}
