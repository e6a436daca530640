// The real `svc-server` admin CLI, run as the user would run it from the repository root.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
/** The committed bin shim of @svc/server (linked as node_modules/.bin/svc-server by npm). */
const BIN = join(dirname(require.resolve('@svc/server/package.json')), 'bin', 'svc-server.js');

/** How to call it from the current directory: `npx svc-server` inside this repository. */
export const svcServer = relative(process.cwd(), BIN).startsWith('..')
  ? `node ${BIN}`
  : 'npx svc-server';

/**
 * Prints the project's cards with `svc-server cards list`.
 * @param {number} projectId
 * @param {string} dataDir
 */
export async function printCards(projectId, dataDir) {
  const run = promisify(execFile);
  const args = ['cards', 'list', '--project', String(projectId), '--data-dir', dataDir];
  const { stdout } = await run(process.execPath, [BIN, ...args]);
  process.stdout.write(stdout);
}
