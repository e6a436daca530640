import { PLANS } from './generated/limits.gen.ts';
import { searchOf } from './store/search.ts';
import { newEncryptionKey, newPublishableKey, newSecretKey } from './core/keys.ts';
import type {
  Account,
  CardWithVariants,
  KeySummary,
  Member,
  NotificationSetting,
  OutboxMail,
  Plan,
  Project,
  ProjectState,
  Store,
} from './store/types.ts';

/** The spec's plans, in its order. */
export const PLAN_NAMES = Object.keys(PLANS) as readonly Plan[];
export const PROJECT_STATES: readonly ProjectState[] = ['active', 'paused', 'archived'];

export class AdminError extends Error {
  override name = 'AdminError';
}

/** Account, project and key administration (also behind the `svc-server` CLI). */
export interface Admin {
  createAccount(input: { name: string; plan: Plan; members?: Member[] }): Promise<Account>;
  createProject(input: { accountId: number; name: string }): Promise<Project>;
  /** The token is returned once; only its hash is stored. */
  createPublishableKey(input: {
    projectId: number;
    name: string;
    origins?: string[];
  }): Promise<{ id: number; token: string }>;
  /** The signing secret is returned once; only its hash is stored. */
  createSecretKey(input: {
    projectId: number;
    name: string;
  }): Promise<{ id: number; keyId: string; signingSecret: string }>;
  /**
   * A new X25519 keypair; or, with `privateKey` (base64 of a 32-byte X25519 secret key), imports an
   * existing one, e.g. when moving a project to another service. The private key never leaves it.
   */
  createEncryptionKey(input: {
    projectId: number;
    name: string;
    privateKey?: string;
  }): Promise<{ id: number; keyId: string; publicKey: string }>;
  /** Immediate: the next request with this key is refused. */
  revokeKey(id: number): Promise<void>;
  setProjectState(projectId: number, state: ProjectState): Promise<Project>;
  listAccounts(): Promise<Account[]>;
  listProjects(accountId?: number): Promise<Project[]>;
  listKeys(projectId: number): Promise<KeySummary[]>;
  listCards(projectId: number): Promise<CardWithVariants[]>;
  /**
   * A page of a project's cards with their variants, by id: at most `limit` after the card
   * `after`; `next` is the `after` of the next page (null at the end).
   */
  cardsPage(
    projectId: number,
    page: { after?: number; limit: number; search?: string },
  ): Promise<{ cards: CardWithVariants[]; next: number | null }>;
  /** Quota warnings and notification digests, sent or pending. */
  listMail(accountId?: number): Promise<OutboxMail[]>;
  /**
   * E-mail on new cards and regressions of a project (batched: see `notifications` of
   * `startServer`), to `to` or, without it, every member of the project's account; or stop them.
   */
  setNotifications(input: {
    projectId: number;
    enabled: boolean;
    to?: string[];
  }): Promise<NotificationSetting | null>;
  listNotifications(): Promise<NotificationSetting[]>;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The project, or an AdminError naming the id. */
async function projectOf(store: Store, id: number): Promise<Project> {
  const p = await store.getProject(id);
  if (!p) throw new AdminError(`No project with id ${id}.`);
  return p;
}

/** A trimmed, non-blank name, or an AdminError saying what needs one. */
function nameOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new AdminError(`${what} needs a name.`);
  return value.trim();
}

export function createAdmin(store: Store): Admin {
  return {
    ...accountAdmin(store),
    ...keyAdmin(store),
    ...notificationAdmin(store),
  };
}

/** Accounts and projects: created checked (plans, roles, e-mails, names), states, lists, cards. */
function accountAdmin(store: Store) {
  return {
    async createAccount(input) {
      if (!PLAN_NAMES.includes(input.plan)) {
        throw new AdminError(`Unknown plan "${input.plan}"; use one of ${PLAN_NAMES.join(', ')}.`);
      }
      for (const m of input.members ?? []) {
        if (!EMAIL.test(m.email)) throw new AdminError(`Invalid e-mail "${m.email}".`);
        if (!['owner', 'admin', 'member'].includes(m.role)) {
          throw new AdminError(`Unknown role "${m.role}"; use owner, admin or member.`);
        }
      }
      return store.createAccount({
        name: nameOf(input.name, 'An account'),
        plan: input.plan,
        members: input.members ?? [],
      });
    },
    async createProject(input) {
      if (!(await store.getAccount(input.accountId))) {
        throw new AdminError(`No account with id ${input.accountId}.`);
      }
      return store.createProject({
        accountId: input.accountId,
        name: nameOf(input.name, 'A project'),
      });
    },
    async setProjectState(projectId, state) {
      if (!PROJECT_STATES.includes(state))
        throw new AdminError(`Unknown project state "${state}".`);
      await projectOf(store, projectId);
      return store.setProjectState(projectId, state);
    },
    listAccounts: async () => store.listAccounts(),
    listProjects: async (accountId) => store.listProjects(accountId),
    listCards: async (projectId) => {
      await projectOf(store, projectId);
      return store.listCards(projectId);
    },
    cardsPage: async (projectId, page) => {
      await projectOf(store, projectId);
      const found = await store.listCards(projectId, {
        after: page.after,
        limit: page.limit + 1,
        search: searchOf(projectId, { text: page.search }),
      });
      const cards = found.slice(0, page.limit);
      return { cards, next: found.length > page.limit ? cards.at(-1)!.id : null };
    },
  } satisfies Partial<Admin>;
}

/** Keys: made here (only hashes of secrets stored), revoked at once, listed. */
function keyAdmin(store: Store) {
  return {
    async createPublishableKey(input) {
      await projectOf(store, input.projectId);
      const k = newPublishableKey();
      const id = await store.insertKey({
        projectId: input.projectId,
        kind: 'publishable',
        name: nameOf(input.name, 'A key'),
        lookup: k.lookup,
        origins: (input.origins ?? []).map((o) => o.trim()).filter(Boolean),
      });
      return { id, token: k.token };
    },
    async createSecretKey(input) {
      await projectOf(store, input.projectId);
      const k = newSecretKey();
      const id = await store.insertKey({
        projectId: input.projectId,
        kind: 'secret',
        name: nameOf(input.name, 'A key'),
        lookup: k.keyId,
        secretHash: k.secretHash,
      });
      return { id, keyId: k.keyId, signingSecret: k.signingSecret };
    },
    async createEncryptionKey(input) {
      await projectOf(store, input.projectId);
      let k: ReturnType<typeof newEncryptionKey>;
      try {
        k = newEncryptionKey(input.privateKey);
      } catch (e) {
        throw new AdminError((e as Error).message);
      }
      const id = await store.insertKey({
        projectId: input.projectId,
        kind: 'encryption',
        name: nameOf(input.name, 'A key'),
        lookup: k.keyId,
        publicKey: k.publicKey,
        privateKey: k.privateKey,
      });
      return { id, keyId: k.keyId, publicKey: k.publicKey };
    },
    listKeys: async (projectId) => store.listKeys(projectId),
    async revokeKey(id) {
      if (!(await store.revokeKey(id))) throw new AdminError(`No live key with id ${id}.`);
    },
  } satisfies Partial<Admin>;
}

/** Per-project e-mail notifications, and the mail queued (quota warnings, digests). */
function notificationAdmin(store: Store) {
  return {
    listMail: async (accountId) => store.listMail(accountId),
    async setNotifications({ projectId, enabled, to = [] }) {
      await projectOf(store, projectId);
      const bad = to.find((email) => !EMAIL.test(email));
      if (bad !== undefined) throw new AdminError(`Invalid e-mail "${bad}".`);
      await store.setNotifications(
        projectId,
        enabled ? { recipients: to.length > 0 ? [...new Set(to)] : null } : null,
      );
      const all = await store.listNotifications();
      return all.find((n) => n.projectId === projectId) ?? null;
    },
    listNotifications: async () => store.listNotifications(),
  } satisfies Partial<Admin>;
}
