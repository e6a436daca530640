// The service under test for bench/server/board.mjs: a built @svc/server with the board on, over
// the data dir given (argv[2]) or a fresh one (`-`). SVC_SERVER_DIST may name another build's
// index.js (board.mjs --before). With `--bare`, the board's sort indexes and per-hour triggers are
// dropped after start (the write-cost comparison). Prints `READY {...}`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const { startServer } = await import(
  process.env.SVC_SERVER_DIST
    ? pathToFileURL(resolve(process.env.SVC_SERVER_DIST)).href
    : '../../server/dist/index.js'
);

const dataDir =
  process.argv[2] === '-' ? mkdtempSync(join(tmpdir(), 'svc-board-svc-')) : process.argv[2];
const big = { burstPerMinute: 1e9, dailyEvents: 1e9 };
const server = await startServer({ port: 0, dataDir, board: true, plans: { team: big } });
const { token } = await server.board.adminTokens.create({ name: 'bench' });
let apiKey;
if (process.argv.includes('--fresh')) {
  const account = await server.admin.createAccount({ name: 'Bench', plan: 'team' });
  const project = await server.admin.createProject({ accountId: account.id, name: 'Bench' });
  apiKey = (await server.admin.createPublishableKey({ projectId: project.id, name: 'b' })).token;
}
if (process.argv.includes('--bare')) {
  // Whatever this build's board indexes are called: every index on cards but deduplication's.
  const db = new Database(join(dataDir, 'svc.sqlite'));
  const names = db
    .prepare(
      `SELECT type, name FROM sqlite_master WHERE tbl_name = 'cards' AND sql IS NOT NULL AND
         (type = 'trigger' AND name LIKE 'card_hours%' OR type = 'index' AND name LIKE 'cards_by_%'
          AND name NOT IN ('cards_by_title', 'cards_by_description'))`,
    )
    .all();
  for (const { type, name } of names) db.exec(`DROP ${type.toUpperCase()} ${name}`);
  db.close();
}
console.log(`READY ${JSON.stringify({ url: server.url, token, apiKey })}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
