// The service under test for bench/server/board.mjs: the built @svc/server with the board on,
// over the data dir given (argv[2]) or a fresh one. With `--bare`, the board's sort indexes and
// per-hour triggers are dropped after start (the write-cost comparison). Prints `READY {...}`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer } from '../../server/dist/index.js';

const BOARD_OBJECTS = `DROP INDEX cards_by_last_seen; DROP INDEX cards_by_first_seen;
  DROP INDEX cards_by_count; DROP INDEX cards_by_severity; DROP INDEX cards_by_priority;
  DROP TRIGGER card_hours_on_insert; DROP TRIGGER card_hours_on_count; DROP TRIGGER card_hours_prune;`;

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
  const db = new Database(join(dataDir, 'svc.sqlite'));
  db.exec(BOARD_OBJECTS);
  db.close();
}
console.log(`READY ${JSON.stringify({ url: server.url, token, apiKey })}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
