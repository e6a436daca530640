import type pg from 'pg';
import {
  type BatchWrites,
  type CardState,
  newCardState,
  PENDING_BASE,
} from '../../accept/index.ts';
import { AGGREGATE_IDENTITY, AGGREGATE_TITLE } from '../rows.ts';
import type { PgIngestCache } from './ingest-cache.ts';

export type WriteAnswer =
  | { stale: [number, number][] }
  | { revoked: number[] }
  | { cards: number[]; variants: number[]; descriptions: Record<string, string | null> | null };

/**
 * A batch's writes as the one statement `svc_ingest_write` takes: every account with the version
 * the batch decided at and the version it moves to; new rows in the batch's order; refs to the
 * batch's new cards as -1, -2, … (their position). `want`: stored cards whose answers show them
 * (their descriptions come back with the result).
 */
export async function writeBatch(
  client: Pick<pg.PoolClient, 'query'>,
  w: BatchWrites,
  versions: [number, number, number][],
  keys: number[],
  want: number[],
): Promise<WriteAnswer> {
  const refs = new Map(w.cardInserts.map((c, i) => [c.ref, -(i + 1)]));
  const ref = (r: number) => (r >= PENDING_BASE ? refs.get(r)! : r);
  const input = ingestInput(w, versions, keys, want, ref);
  const alerts = alertInput(w, ref);
  const { rows } = await client.query<{ r: WriteAnswer }>(
    alerts === null
      ? {
          name: 'svc_ingest_write',
          text: 'SELECT svc_ingest_write($1::json) AS r',
          values: [JSON.stringify(input)],
        }
      : {
          name: 'svc_ingest_write_alerts',
          text: 'SELECT svc_alert_write($2::json, svc_ingest_write($1::json)) AS r',
          values: [JSON.stringify(input), JSON.stringify(alerts)],
        },
  );
  return rows[0]!.r;
}

/** The input of `svc_ingest_write`: the batch's rows, refs to its new cards by position. */
function ingestInput(
  w: BatchWrites,
  versions: [number, number, number][],
  keys: number[],
  want: number[],
  ref: (r: number) => number,
) {
  return {
    accounts: versions,
    keys,
    aggregate: [AGGREGATE_IDENTITY, AGGREGATE_TITLE],
    buckets: [...w.buckets].map(([p, b]) => ({ p, t: b.tokens, u: b.updatedAt })),
    usage: w.usage.map(([a, d, p, n]) => ({ a, d, p, n })),
    inserts: w.cardInserts.map(({ projectId, card: c }, i) => ({
      i: i + 1,
      p: projectId,
      title: c.title,
      description: c.description,
      hash: c.descriptionHash,
      type: c.descriptionType,
      priority: c.priority,
      severity: c.severity,
      tags: JSON.stringify(c.tags),
      status: c.status,
      n: c.occurrenceCount,
      file: c.fileName,
      line: c.lineNumber,
      created: c.createdAt,
      last: c.lastSeenAt,
      ud: c.usageDay,
      uc: c.usageCount,
    })),
    updates: w.cardUpdates.map((u) => ({
      id: u.id,
      n: u.occurrenceCount,
      last: u.lastSeenAt,
      tags: u.tags && JSON.stringify(u.tags),
      ud: u.usageDay,
      uc: u.usageCount,
    })),
    regressions: w.regressions.map(({ id, regression: r }, i) => ({
      i,
      id,
      prior: r.from,
      status: r.to,
      n: r.regressions,
      at: r.at,
      release: r.release,
      env: r.environment,
      ordering: r.ordering,
    })),
    removals: w.variantRemovals,
    adds: w.variantAdds.map((a) => ({ id: a.id, add: a.add, last: a.lastSeenAt })),
    variants: w.variantInserts.map((v, i) => ({
      i: i + 1,
      c: ref(v.cardRef),
      identity: v.sighting.identity,
      title: v.sighting.title,
      description: v.sighting.description,
      file: v.sighting.fileName,
      line: v.sighting.lineNumber,
      n: v.count,
      first: v.firstSeenAt,
      last: v.lastSeenAt,
    })),
    folds: w.variantFolds.map((f) => ({
      c: ref(f.cardRef),
      n: f.count,
      first: f.firstSeenAt,
      last: f.lastSeenAt,
    })),
    notices: w.notices.map((n, i) => ({
      i,
      p: n.projectId,
      c: ref(n.cardRef),
      kind: n.notice.kind,
      release: n.notice.release,
      at: n.at,
      env: n.notice.environment,
    })),
    releases: w.releases.map((r, i) => ({ i, p: r.projectId, name: r.name, at: r.at })),
    envs: w.envCounts.map((e) => ({
      c: ref(e.cardRef),
      env: e.env,
      n: e.count,
      first: e.firstSeenAt,
      last: e.lastSeenAt,
    })),
    want,
  };
}

/**
 * What the batch leaves for alert rules (`svc_alert_write`, in the same statement): its notices
 * with their environment and release, and its reports per card, environment and minute; null when
 * it has neither (nothing was admitted).
 */
function alertInput(w: BatchWrites, ref: (r: number) => number) {
  if (w.notices.length === 0 && w.occurrences.length === 0) return null;
  return {
    notices: w.notices.map((n, i) => ({
      i,
      p: n.projectId,
      c: ref(n.cardRef),
      kind: n.notice.kind,
      env: n.notice.environment,
      release: n.notice.release,
      at: n.at,
    })),
    counts: w.occurrences.map((o) => ({
      p: o.projectId,
      m: o.minute,
      c: ref(o.cardRef),
      env: o.environment ?? '',
      n: o.count,
    })),
  };
}

/**
 * What this instance knows, moved on by a batch whose write is on its way (so the next batch is
 * decided after it): the accounts' new versions, counters, stored cards' counters and statuses,
 * named variant counts, pruned variants forgotten. The rows the batch creates are made unknown
 * (a title that read as no card may now have one) until `applyCreated` learns their ids. If the
 * write fails, the port forgets the batch's accounts.
 */
export function applyPredicted(
  cache: PgIngestCache,
  w: BatchWrites,
  versions: [number, number, number][],
  namedAfter: (cardRef: number) => number | undefined,
): Map<number, number | undefined> {
  const get: PgIngestCache['get'] = (name, key) => cache.get(name, key);
  const set: PgIngestCache['set'] = (name, account, key, value) =>
    cache.set(name, account, key, value);
  for (const [account, , next] of versions) cache.setVersion(account, next, true);
  const epochs = new Map(versions.map(([account]) => [account, cache.epoch(account)]));
  for (const [projectId, bucket] of w.buckets) {
    const project = get('projects', String(projectId));
    if (project)
      set('projects', cache.accountOfProject(projectId), String(projectId), { ...project, bucket });
  }
  for (const [account, day, projectId, n] of w.usage) {
    const total = get('accountUsage', `${account}:${day}`);
    if (total !== undefined) set('accountUsage', account, `${account}:${day}`, total + n);
    const own = get('projectUsage', `${projectId}:${day}`);
    if (own !== undefined) set('projectUsage', account, `${projectId}:${day}`, own + n);
  }
  const touch = (id: number, change: (state: CardState) => void) => {
    const account = cache.accountOfCard(id);
    const card = get('cards', String(id));
    if (!card || account === undefined) return;
    const state = { ...card.state };
    change(state);
    set('cards', account, String(id), { ...card, state, named: namedAfter(id) ?? card.named });
  };
  for (const u of w.cardUpdates) {
    touch(u.id, (s) => {
      s.occurrenceCount = u.occurrenceCount;
      s.lastSeenAt = u.lastSeenAt;
      s.usageDay = u.usageDay;
      s.usageCount = u.usageCount;
      if (u.tags) s.tags = u.tags;
    });
  }
  for (const { id, regression: r } of w.regressions) {
    touch(id, (s) => {
      s.status = r.to;
      s.regressions = r.regressions;
      s.resolvedEnv = null;
      s.resolvedRelease = null;
    });
  }
  // Their places in the order first seen are known once read (another instance may have seen them).
  for (const r of w.releases) cache.unknown('releases', `${r.projectId}\0${r.name}`);
  for (const f of w.variantFolds) if (f.cardRef < PENDING_BASE) touch(f.cardRef, () => {});
  for (const removed of w.variantRemovals) cache.forgetVariant(removed);
  for (const { projectId, card: c } of w.cardInserts) {
    cache.unknown('titles', `${projectId}\0${c.title}`);
    if (c.descriptionHash !== null)
      cache.unknown('descriptions', `${projectId}\0${c.descriptionHash}`);
  }
  for (const v of w.variantInserts) {
    if (v.cardRef < PENDING_BASE) cache.unknown('variants', `${v.cardRef}\0${v.sighting.identity}`);
  }
  return epochs;
}

/**
 * Learns the ids of the rows a written batch created, with their state after it: only where the
 * account is still at the epoch the batch was predicted in (`epochs`; else what is known of it
 * was read since, or forgotten) and nothing newer is known of the row.
 */
export function applyCreated(
  cache: PgIngestCache,
  w: BatchWrites,
  ids: Map<number, number>,
  variantIds: number[],
  namedAfter: (cardRef: number) => number | undefined,
  epochs: Map<number, number | undefined>,
) {
  const idOf = (ref: number) => (ref >= PENDING_BASE ? ids.get(ref)! : ref);
  const current = (account: number | undefined) =>
    account !== undefined &&
    epochs.get(account) !== undefined &&
    cache.epoch(account) === epochs.get(account);
  for (const { ref, projectId, card: c } of w.cardInserts) {
    const id = idOf(ref);
    const account = cache.accountOfProject(projectId);
    if (!current(account)) continue;
    if (cache.get('titles', `${projectId}\0${c.title}`) !== undefined) continue;
    cache.set('cards', account, String(id), {
      facts: {
        title: c.title,
        description_type: c.descriptionType,
        priority: c.priority,
        severity: c.severity,
        file_name: c.fileName,
        line_number: c.lineNumber,
        created_at: c.createdAt,
      },
      state: newCardState(id, c),
      named: namedAfter(ref) ?? 0,
    });
    cache.set('titles', account, `${projectId}\0${c.title}`, id);
    if (c.descriptionHash !== null) {
      cache.set('descriptions', account, `${projectId}\0${c.descriptionHash}`, {
        card: id,
        text: c.description!,
      });
    }
  }
  for (const [i, v] of w.variantInserts.entries()) {
    const cardId = idOf(v.cardRef);
    const account = cache.accountOfCard(cardId);
    const key = `${cardId}\0${v.sighting.identity}`;
    if (current(account) && cache.get('variants', key) === undefined) {
      cache.setVariant(account!, cardId, v.sighting.identity, variantIds[i]!);
    }
  }
}
