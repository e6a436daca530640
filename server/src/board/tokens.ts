import { randomBytes } from 'node:crypto';
import { AdminError } from '../admin.ts';
import { sha256Hex } from '../core/hash.ts';
import type { AdminTokenSummary, BoardStore } from '../store/board-types.ts';

// Admin tokens open the board. Like ingestion keys, only the sha256 of a value is stored and the
// value is shown once. They are a separate kind: an ingestion key never opens the board, and an
// admin token is never accepted by the ingestion endpoint.

export const ADMIN_TOKEN = /^svc_adm_[0-9a-f]{64}$/;
/** An admin token's name (shown in card histories) has at most this many characters. */
const NAME_MAX = 100;

export function newAdminToken() {
  const token = `svc_adm_${randomBytes(32).toString('hex')}`;
  return { token, lookup: sha256Hex(token) };
}

export interface AdminTokens {
  /** The token is returned once; only its hash is stored. The name: 1 to 100 characters. */
  create(input?: { name?: string }): Promise<{ id: number; name: string; token: string }>;
  list(): Promise<AdminTokenSummary[]>;
  /** Immediate: the token and every board session opened with it stop working. */
  revoke(id: number): Promise<void>;
}

export function createAdminTokens(store: BoardStore, now: () => number = Date.now): AdminTokens {
  return {
    async create(input = {}) {
      const name = (input.name ?? 'admin').trim();
      if (name === '') throw new AdminError('An admin token needs a name.');
      if (name.length > NAME_MAX) {
        throw new AdminError(`An admin token's name is at most ${NAME_MAX} characters.`);
      }
      const t = newAdminToken();
      const id = await store.insertAdminToken({ name, lookup: t.lookup, createdAt: now() });
      return { id, name, token: t.token };
    },
    list: async () => store.listAdminTokens(),
    async revoke(id) {
      if (!(await store.revokeAdminToken(id, now()))) {
        throw new AdminError(`No live admin token with id ${id}.`);
      }
    },
  };
}
