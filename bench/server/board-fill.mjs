// The board bench's data: a deterministic board filled through the store's real ingest path of a
// given build (`dist`: its index.js), then 0.1 % of the cards resolved through its board store.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DAY = 86_400_000;
const big = { burstPerMinute: 1e9, dailyEvents: 1e9 };
const PLANS = { hobby: big, indie: big, professional: big, team: big };

/** Deterministic pseudo-random numbers, so every run fills the same board. */
function random(seed) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}
const next = random(42);
const pick = (xs) => xs[Math.floor(next() * xs.length)];
const KINDS = ['TypeError', 'RangeError', 'Timeout', 'ValidationError', 'DatabaseError'];
const MODULES = ['checkout', 'cart', 'search', 'auth', 'billing', 'inventory', 'profile', 'feed'];
const TOPICS = Array.from({ length: 40 }, (_, i) => `topic-${i}`);

export function report(i) {
  const module = pick(MODULES);
  return {
    severity: pick(['critical', 'major', 'major', 'moderate', 'moderate', 'moderate', 'minor']),
    priority: pick(['low', 'medium', 'medium', 'high']),
    title: `${pick(KINDS)} in ${module} #${i}`,
    description: `${pick(KINDS)}: request ${i} failed\n    at handle (src/${module}/handler.ts:${(i % 300) + 1}:9)\n    at async route (src/server/router.ts:42:5)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`,
    tags: [
      pick(['env:production', 'env:staging']),
      `release:1.${i % 20}.0`,
      pick(TOPICS),
      ...(i % 10_000 === 7 ? ['rare'] : []),
    ],
    file_name: `src/${module}/handler.ts`,
    line_number: null,
  };
}

const keyOf = (projectId, accountId) => ({
  id: 1,
  kind: 'publishable',
  projectId,
  accountId,
  plan: 'team',
  secretHash: null,
  origins: [],
});

// Builds before the engine-neutral openers export `openSqliteStore` and `openSqliteBoardStore`.
const openStore = (build, opts) =>
  build.openStore ? build.openStore(opts) : build.openSqliteStore(opts);
const openBoardStore = (build, at) =>
  build.openBoardStore ? build.openBoardStore(at) : build.openSqliteBoardStore(at);

async function newStore(build, dataDir, now, databaseUrl) {
  const store = await openStore(build, {
    dataDir,
    databaseUrl,
    now,
    plans: PLANS,
    variantCap: 20,
    projectQuotaShare: 0.8,
  });
  const account = await store.createAccount({ name: 'Bench', plan: 'team', members: [] });
  const project = await store.createProject({ accountId: account.id, name: 'Big board' });
  return { store, key: keyOf(project.id, account.id), projectId: project.id };
}

/**
 * 100k new cards plus 25 % repeats of earlier ones, over 30 days, through the real ingest path;
 * then every thousandth card is resolved (`done`: the status few cards have). On SQLite in
 * `dataDir`, or on the PostgreSQL database of `databaseUrl`.
 */
export async function fill(dataDir, cards, dist, databaseUrl = undefined) {
  const build = await import(
    dist ? pathToFileURL(resolve(dist)).href : '../../server/dist/index.js'
  );
  let clock = Date.now() - 30 * DAY;
  const { store, key, projectId } = await newStore(build, dataDir, () => clock, databaseUrl);
  const chunk = 500;
  const step = (30 * DAY) / (cards / chunk);
  const started = performance.now();
  for (let made = 0; made < cards; made += chunk) {
    clock += step;
    const calls = [];
    for (let i = made; i < Math.min(cards, made + chunk); i++)
      calls.push(store.ingest(key, report(i)));
    for (let r = 0; r < chunk / 4 && made > 0; r++) {
      const again = report(Math.floor(next() * made));
      calls.push(
        store.ingest(key, { ...again, description: `${again.description}\n    at retry ${r % 3}` }),
      );
    }
    await Promise.all(calls);
  }
  // One card with 20 kept variants and an `Other variants` row, for the card page.
  clock = Date.now() - 3_600_000;
  for (let v = 0; v < 25; v++) {
    await store.ingest(key, {
      ...report(0),
      title: 'Card with many variants',
      description: `variant ${v}\n${report(v).description}`,
    });
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  const board = await openBoardStore(build, { dataDir, databaseUrl });
  const ids = Array.from({ length: Math.floor(cards / 1000) }, (_, i) => i * 1000 + 7);
  for (let i = 0; i < ids.length; i += 100) {
    const cardIds = ids.slice(i, i + 100);
    await board.setCardStatus({ cardIds, status: 'done', actor: 'bench', at: clock });
  }
  await board.close();
  return { projectId, seconds, done: ids.length };
}
