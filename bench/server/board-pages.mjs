// The board bench's page measurements (bench/server/board.mjs): pages fetched from each service,
// interleaved, next to GET /health and SQL peers; and GET /health while searches run.
import { join } from 'node:path';
import Database from 'better-sqlite3';

const cursor = (key) => Buffer.from(JSON.stringify(key)).toString('base64url');
const quantile = (xs, q) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
export const ms = (x) => (x === undefined ? '' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const timed = async (svc, path) => {
  const t0 = performance.now();
  const res = await fetch(svc.url + path, { headers: { authorization: `Bearer ${svc.token}` } });
  await res.arrayBuffer();
  return performance.now() - t0;
};

/** The board's default view: open cards, one index range per status, merged. */
const OPEN = ['todo', 'in_progress'];
const openArms = (where) =>
  OPEN.map(
    (s) => `SELECT id, title, severity, priority, tags, occurrence_count, description_type,
    created_at, last_seen_at FROM cards WHERE project_id = ? AND status = '${s}'${where}`,
  ).join(' UNION ALL ');

/**
 * Each page case fetched `rounds` times from every service, alternating, with `GET /health` as the
 * floor; and the board's keyset SQL against OFFSET peers on this build's file.
 */
export async function measurePages(services, dataDir, projectId, { deep: DEEP, rounds: ROUNDS }) {
  const deep = DEEP.toLocaleString('en-US');
  const db = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
  const inOpen = `status IN (${OPEN.map((s) => `'${s}'`).join(', ')})`;
  const at = (order, columns) =>
    Object.values(
      db
        .prepare(
          `SELECT ${columns} FROM cards WHERE project_id = ? AND ${inOpen} ORDER BY ${order} LIMIT 1 OFFSET ${DEEP - 1}`,
        )
        .get(projectId),
    );
  const lastSeenDeep = at('last_seen_at DESC, id DESC', 'last_seen_at, id');
  const titleDeep = at('title, id', 'title, id');
  const manyVariants = db
    .prepare("SELECT id FROM cards WHERE title = 'Card with many variants'")
    .pluck()
    .get();
  const sql = {
    keyset: db.prepare(
      `${openArms(' AND (last_seen_at, id) < (?, ?)')} ORDER BY last_seen_at DESC, id DESC LIMIT 51`,
    ),
    offset: db.prepare(
      `${openArms('')} ORDER BY last_seen_at DESC, id DESC LIMIT 51 OFFSET ${DEEP}`,
    ),
    scanOffset: db.prepare(
      `SELECT * FROM cards NOT INDEXED WHERE project_id = ? AND ${inOpen} ORDER BY last_seen_at DESC, id DESC LIMIT 51 OFFSET ${DEEP}`,
    ),
    scanFirst: db.prepare(
      `SELECT * FROM cards NOT INDEXED WHERE project_id = ? AND ${inOpen} ORDER BY last_seen_at DESC, id DESC LIMIT 51`,
    ),
  };
  const base = `/board/projects/${projectId}`;
  const http = [
    ['floor: GET /health, same server and connection', '/health'],
    ['accounts page (20 accounts a page)', '/board'],
    ['cards, first page (open, last seen)', base],
    [`cards, page at row ${deep} (last seen, keyset)`, `${base}?after=${cursor(lastSeenDeep)}`],
    ['cards, sorted by count', `${base}?sort=count`],
    [
      `cards, by title, page at row ${deep}`,
      `${base}?sort=title&dir=asc&after=${cursor(titleDeep)}`,
    ],
    ['cards, status done (0.1 % of cards)', `${base}?status=done`],
    ['cards, status done (0.1 %), by title', `${base}?status=done&sort=title&dir=asc`],
    ['cards, severity = critical', `${base}?severity=critical`],
    ['cards, priority = low, sorted by count', `${base}?priority=low&sort=count`],
    ['cards, tag on 10 cards', `${base}?tag=rare`],
    ['cards, title text matching nothing', `${base}?q=no-such-text`],
    ['card page, 20 variants + Other variants', `${base}/cards/${manyVariants}`],
  ];
  const local = [
    [
      `SQL: keyset page at row ${deep} (what the board runs)`,
      () => sql.keyset.all(projectId, ...lastSeenDeep, projectId, ...lastSeenDeep),
    ],
    [`SQL peer: OFFSET ${deep} over the same indexes`, () => sql.offset.all(projectId, projectId)],
    [`SQL peer: OFFSET ${deep} without indexes (scan + sort)`, () => sql.scanOffset.all(projectId)],
    ['SQL peer: first page without indexes (scan + sort)', () => sql.scanFirst.all(projectId)],
  ];
  const samples = new Map();
  const sample = (key, x) => {
    if (!samples.has(key)) samples.set(key, []);
    samples.get(key).push(x);
  };
  const bytes = new Map();
  try {
    for (const [, path] of http) {
      for (const [which, svc] of services) {
        const res = await fetch(svc.url + path, {
          headers: { authorization: `Bearer ${svc.token}` },
        }); // warm-up, and check it answers
        if (res.status !== 200) throw new Error(`${which} ${path} answered ${res.status}`);
        bytes.set(`${which} ${path}`, (await res.arrayBuffer()).byteLength);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...services].reverse() : services;
      for (const [name, path] of http) {
        for (const [which, svc] of order) sample(`${which} ${name}`, await timed(svc, path));
      }
      for (const [name, run] of local) {
        const t0 = performance.now();
        run();
        sample(name, performance.now() - t0);
      }
    }
  } finally {
    db.close();
  }
  const stat = (key) =>
    samples.has(key)
      ? { median: quantile(samples.get(key), 0.5), p95: quantile(samples.get(key), 0.95) }
      : {};
  return [
    ...http.map(([name, path]) => ({
      name,
      by: services.map(([which]) => stat(`${which} ${name}`)),
      bytes: services.map(([which]) => bytes.get(`${which} ${path}`)),
    })),
    ...local.map(([name]) => ({ name, by: [stat(name)], sqlOnly: true })),
  ];
}

/**
 * `GET /health` on one connection while two clients search without pause (a tag on 10 cards and
 * text matching nothing, in turn): how long a search holds the event loop. Rounds alternate the
 * services, `seconds` each.
 */
export async function healthUnderSearch(services, { rounds = 6, seconds = 2 } = {}) {
  const out = new Map(services.map(([which]) => [which, { health: [], searches: 0 }]));
  for (let round = 0; round < rounds; round++) {
    for (const [which, svc] of round % 2 ? [...services].reverse() : services) {
      const base = `/board/projects/${svc.projectId}`;
      const result = out.get(which);
      let stop = false;
      const search = async (path) => {
        while (!stop) {
          await timed(svc, path);
          result.searches++;
        }
      };
      const searchers = [search(`${base}?tag=rare`), search(`${base}?q=no-such-text`)];
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until) result.health.push(await timed(svc, '/health'));
      stop = true;
      await Promise.all(searchers);
    }
  }
  return [...out].map(([which, r]) => ({
    which,
    median: quantile(r.health, 0.5),
    p95: quantile(r.health, 0.95),
    p99: quantile(r.health, 0.99),
    max: Math.max(...r.health),
    searchesPerSecond: r.searches / (rounds * seconds),
  }));
}
