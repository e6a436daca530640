import type pg from 'pg';
import { descriptionHash, type VariantState, utcDay, variantIdentity } from '../../accept/index.ts';
import type { AuthKey, TaskReport } from '../types.ts';
import type { PgIngestCache, Pinned } from './ingest-cache.ts';

/** One report of a batch, with what its answer needs. */
export interface BatchItem {
  key: AuthKey;
  report: TaskReport;
  /** The answer shows the card. */
  card: boolean;
}

/** What a batch's decisions asked for and this instance did not know (see ingest-view.ts). */
export interface Misses {
  /** A report's card by title or description was not known (read again with the items). */
  cards: boolean;
  projects: Set<number>;
  variants: Map<string, [number, string]>;
  lists: Set<number>;
  /** `projectId\0release` -> [projectId, release]: places in the order first seen. */
  releases: Map<string, [number, string]>;
}

export const noMisses = (): Misses => ({
  cards: false,
  projects: new Set(),
  variants: new Map(),
  lists: new Set(),
  releases: new Map(),
});
export const hasMisses = (m: Misses) =>
  m.cards || m.projects.size + m.variants.size + m.lists.size + m.releases.size > 0;

interface ReadItem {
  i: number;
  p: number;
  t: string;
  h: string | null;
  d: string | null;
  v: string;
}

interface ReadRequest {
  accounts: number[];
  day: number;
  projects: number[];
  items: ReadItem[];
  variants: [number, string][];
  lists: number[];
  cards: number[];
  /** Read apart from `svc_ingest_read`: releases' places in the order first seen. */
  releases: [number, string][];
}

type Row = unknown[];
interface ReadResult {
  versions: [number, number][] | null;
  counters: Row[] | null;
  titles: [number, number | null][] | null;
  descriptions: [number, number | null][] | null;
  cards: Row[] | null;
  variants: [number, string, number | null][] | null;
  lists: [number, number, number, number, number][] | null;
}

/**
 * The read a batch needs before deciding, or null: counters of projects not known for the day,
 * the card of each report whose title (then description) is not known, with the variant of its
 * identity, and whatever the last decision pass missed. `force`: read the versions anyway.
 */
export function readRequest(
  cache: PgIngestCache,
  items: readonly BatchItem[],
  now: number,
  misses: Misses,
  force: boolean,
  pinned: Pinned,
): ReadRequest | null {
  const get: PgIngestCache['get'] = (name, key) => cache.get(name, key, pinned);
  const day = utcDay(now);
  const accounts = new Set<number>();
  const projects = new Set(misses.projects);
  const wanted: ReadItem[] = [];
  const variants = new Map(misses.variants);
  const seen = new Set<string>();
  let unknownAccount = false;
  for (const [i, { key, report }] of items.entries()) {
    accounts.add(key.accountId);
    cache.learnProject(key.projectId, key.accountId);
    if (cache.version(key.accountId) === undefined) unknownAccount = true;
    if (
      get('projects', String(key.projectId)) === undefined ||
      get('projectUsage', `${key.projectId}:${day}`) === undefined ||
      get('accountUsage', `${key.accountId}:${day}`) === undefined ||
      get('active', String(key.accountId)) === undefined
    ) {
      projects.add(key.projectId);
    }
    const titleKey = `${key.projectId}\0${report.title}`;
    const hash = descriptionHash(report);
    const byTitle = get('titles', titleKey);
    const described = hash === null ? undefined : get('descriptions', `${key.projectId}\0${hash}`);
    const cardKnown = (id: number | null) => id === null || get('cards', String(id)) !== undefined;
    const known =
      byTitle !== undefined &&
      cardKnown(byTitle) &&
      (byTitle !== null ||
        hash === null ||
        (described !== undefined &&
          described.text === report.description &&
          cardKnown(described.card)));
    const card = byTitle ?? described?.card;
    if (known && card != null) {
      const identity = variantIdentity(report);
      if (get('variants', `${card}\0${identity}`) === undefined) {
        variants.set(`${card}\0${identity}`, [card, identity]);
      }
    }
    if (known || seen.has(`${titleKey}\0${hash}`)) continue;
    seen.add(`${titleKey}\0${hash}`);
    wanted.push({
      i,
      p: key.projectId,
      t: report.title,
      h: hash,
      d: hash && report.description,
      v: variantIdentity(report),
    });
  }
  if (
    !force &&
    !unknownAccount &&
    projects.size === 0 &&
    wanted.length === 0 &&
    variants.size + misses.lists.size + misses.releases.size === 0
  ) {
    return null;
  }
  return {
    accounts: [...accounts],
    day,
    projects: [...projects],
    items: wanted,
    variants: [...variants.values()],
    lists: [...misses.lists],
    cards: [],
    releases: [...misses.releases.values()],
  };
}

/** Runs the read (one statement; `lock`: after locking the accounts' rows) and keeps what it says. */
export async function readInto(
  cache: PgIngestCache,
  client: Pick<pg.PoolClient, 'query'>,
  request: ReadRequest,
  lock: boolean,
  pinned: Pinned,
  lists: Map<number, VariantState[]>,
): Promise<void> {
  const { rows } = await client.query<{ r: ReadResult }>({
    name: 'svc_ingest_read',
    text: 'SELECT svc_ingest_read($1::json, $2) AS r',
    values: [JSON.stringify(request), lock],
  });
  const r = rows[0]!.r;
  const set: PgIngestCache['set'] = (name, account, key, value) =>
    cache.set(name, account, key, value, pinned);
  let moved = false;
  for (const [account, version] of r.versions ?? []) {
    if (cache.setVersion(account, version)) moved = true;
  }
  // Variant lists read before an account moved are of another version.
  if (moved) lists.clear();
  for (const row of r.counters ?? []) {
    const [p, account, state, tokens, updatedAt, active, accountUsage, projectUsage] =
      row as never[];
    const bucket = tokens === null ? null : { tokens, updatedAt };
    set('projects', account, String(p), { state, bucket });
    set('active', account, String(account), active);
    set('accountUsage', account, `${account}:${request.day}`, accountUsage);
    set('projectUsage', account, `${p}:${request.day}`, projectUsage);
  }
  const items = new Map(request.items.map((it) => [it.i, it]));
  for (const [i, card] of r.titles ?? []) {
    const it = items.get(i)!;
    set('titles', cache.accountOfProject(it.p), `${it.p}\0${it.t}`, card);
  }
  for (const [i, card] of r.descriptions ?? []) {
    const it = items.get(i)!;
    set('descriptions', cache.accountOfProject(it.p), `${it.p}\0${it.h}`, {
      card,
      text: it.d!,
    });
  }
  for (const row of r.cards ?? []) {
    const [id, p, title, type, priority, severity, tags, status, count, file, line, created] =
      row as never[];
    const [last, usageDay, usageCount, regressions, named, resolvedEnv, resolvedRelease] =
      row.slice(12) as never[];
    set('cards', cache.accountOfProject(p), String(id), {
      facts: {
        title,
        description_type: type,
        priority,
        severity,
        file_name: file,
        line_number: line,
        created_at: created,
      },
      state: {
        id,
        status,
        regressions,
        tags: JSON.parse(tags) as string[],
        occurrenceCount: count,
        lastSeenAt: last,
        usageDay,
        usageCount,
        resolvedEnv,
        resolvedRelease,
      },
      named,
    });
  }
  for (const [card, identity, id] of r.variants ?? []) {
    const account = cache.accountOfCard(card, pinned);
    if (account !== undefined) cache.setVariant(account, card, identity, id, pinned);
  }
  if (request.releases.length > 0) await readReleases(cache, client, request.releases, pinned);
  for (const id of request.lists) lists.set(id, []);
  for (const [card, id, count, firstSeenAt, lastSeenAt] of r.lists ?? []) {
    lists.get(card)!.push({ id, count, firstSeenAt, lastSeenAt });
  }
}

/**
 * Releases' places in the order their projects first saw them (row ids; null: never seen). Rows
 * are only ever added, and an instance that adds one moves the account's version, so a place read
 * here stays true at the version the batch writes at, or the write is refused as stale.
 */
async function readReleases(
  cache: PgIngestCache,
  client: Pick<pg.PoolClient, 'query'>,
  wanted: [number, string][],
  pinned: Pinned,
): Promise<void> {
  const { rows } = await client.query<{ p: number; name: string; id: number }>(
    `SELECT x.p, x.name, r.id FROM unnest($1::integer[], $2::text[]) AS x(p, name)
     LEFT JOIN releases r ON r.project_id = x.p AND r.name = x.name`,
    [wanted.map(([p]) => p), wanted.map(([, name]) => name)],
  );
  for (const r of rows) {
    cache.set('releases', cache.accountOfProject(r.p), `${r.p}\0${r.name}`, r.id, pinned);
  }
}
