import {
  CARD_STATUSES,
  type CardStatus,
  DEFAULT_ENV,
  IGNORED_STATUS,
  RESOLVED_STATUS,
} from '../accept/index.ts';
import { MAX_ID } from '../domain/types.ts';
import { LIMITS } from '../generated/limits.gen.ts';
import { taskReportSchema } from '../generated/schema.gen.ts';
import { CARD_SORTS, type CardQuery, type CardSort, type SortKey } from '../store/board-types.ts';

// The cards page's URL: sort, direction, filters and the keyset cursor, parsed strictly (an
// unknown value is a 400, never a guess) and written back into links.

export const PAGE_SIZE = 50;
export const SEVERITIES: readonly string[] = taskReportSchema.properties.severity.enum;
export const PRIORITIES: readonly string[] = taskReportSchema.properties.priority.enum;

/** Cards still to deal with: every status but resolved and ignored (`todo`, `in_progress`). */
export const OPEN_STATUSES: readonly CardStatus[] = CARD_STATUSES.filter(
  (s) => s !== RESOLVED_STATUS && s !== IGNORED_STATUS,
);
/** The cards page's status filter: the open ones (default), one status, or all. */
export type StatusView = 'open' | CardStatus | 'all';
export const STATUS_VIEWS: readonly StatusView[] = ['open', ...CARD_STATUSES, 'all'];
const statusesOf = (view: StatusView): readonly CardStatus[] | undefined =>
  view === 'all' ? undefined : view === 'open' ? OPEN_STATUSES : [view];

export interface CardsView {
  /** The environment shown (see environment.ts). */
  env: string;
  sort: CardSort;
  dir: 'asc' | 'desc';
  status: StatusView;
  severity?: string;
  priority?: string;
  tag?: string;
  q?: string;
}

export class BadQuery extends Error {
  override name = 'BadQuery';
}

export const encodeKey = (key: SortKey): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

function decodeKey(cursor: string): SortKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadQuery('The page cursor is not valid.');
  }
  const ok =
    Array.isArray(key) &&
    key.length >= 2 &&
    key.length <= 3 &&
    Number.isSafeInteger(key.at(-1)) &&
    key.every((v) => typeof v === 'string' || Number.isFinite(v));
  if (!ok) throw new BadQuery('The page cursor is not valid.');
  return key as SortKey;
}

/** A cursor's values must have the types of the sort's columns (a title, else whole numbers). */
function fitKey(key: SortKey, sort: CardSort): SortKey {
  const ok = key.every((v, i) =>
    i === 0 && sort === 'title' ? typeof v === 'string' : Number.isSafeInteger(v),
  );
  if (!ok) throw new BadQuery('The page cursor is not valid.');
  return key;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[], what: string) {
  if (value === null || value === '') return undefined;
  if (!allowed.includes(value as T)) throw new BadQuery(`Unknown ${what}.`);
  return value as T;
}

const text = (value: string | null, max: number) => {
  if (value === null || value.trim() === '') return undefined;
  if (value.length > max) throw new BadQuery('A filter is too long.');
  return value.trim();
};

/**
 * The view and the store query of a cards page URL, in environment `env`; throws BadQuery on
 * anything unknown.
 */
export function parseCardsQuery(
  params: URLSearchParams,
  env: string = DEFAULT_ENV,
): { view: CardsView; query: CardQuery } {
  const view: CardsView = {
    env,
    sort: oneOf(params.get('sort'), CARD_SORTS, 'sort') ?? 'last_seen',
    dir: oneOf(params.get('dir'), ['asc', 'desc'] as const, 'direction') ?? 'desc',
    status: oneOf(params.get('status'), STATUS_VIEWS, 'status') ?? 'open',
    severity: oneOf(params.get('severity'), SEVERITIES, 'severity'),
    priority: oneOf(params.get('priority'), PRIORITIES, 'priority'),
    tag: text(params.get('tag'), 200),
    q: text(params.get('q'), LIMITS.titleMax),
  };
  const after = params.get('after');
  const before = params.get('before');
  const query: CardQuery = {
    sort: view.sort,
    dir: view.dir,
    statuses: statusesOf(view.status),
    severity: view.severity,
    priority: view.priority,
    tag: view.tag,
    text: view.q,
    env: view.env,
    after: after ? fitKey(decodeKey(after), view.sort) : undefined,
    before: before && !after ? fitKey(decodeKey(before), view.sort) : undefined,
    limit: PAGE_SIZE,
  };
  return { view, query };
}

/** A link to a cards page: the view with `changes` applied (undefined removes a parameter). */
export function cardsHref(
  projectId: number,
  view: CardsView,
  changes: Partial<Record<keyof CardsView | 'after' | 'before', string | undefined>> = {},
): string {
  const merged: Record<string, string | undefined> = { ...view, ...changes };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) {
    // The environment is always written: a link says which it shows, whatever a browser remembers.
    const isDefault =
      (k === 'sort' && v === 'last_seen') ||
      (k === 'dir' && v === 'desc') ||
      (k === 'status' && v === 'open');
    if (v !== undefined && v !== '' && !isDefault) params.set(k, v);
  }
  const qs = params.toString();
  return `/board/projects/${projectId}${qs ? `?${qs}` : ''}`;
}

/** `?after=ID` or `?before=ID` of the accounts pages (positive ids, not both); `{}` for neither. */
export function parseIdPage(params: URLSearchParams): { after?: number; before?: number } {
  const id = (name: string) => {
    const value = params.get(name);
    if (value === null) return undefined;
    if (!/^[1-9]\d{0,14}$/.test(value)) throw new BadQuery(`The ${name} id is not valid.`);
    // Past every id there can be (32 bits): the same rows as from the last one.
    return Math.min(Number(value), MAX_ID);
  };
  const after = id('after');
  const before = id('before');
  if (after !== undefined && before !== undefined) {
    throw new BadQuery('A page is either after or before an id, not both.');
  }
  return { after, before };
}
