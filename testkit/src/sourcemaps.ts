// What a build uploaded, as the service's operator sees it: `svc-server sourcemaps list --project
// ID --json` run against the data dir of a reference service started with that `dataDir`.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { promisify } from 'node:util';

/** One stored upload, as `sourcemaps list --json` prints it. */
export interface ListedSourceMap {
  id: number;
  project_id: number;
  release: string;
  path: string;
  debug_id: string | null;
  bytes: number;
  sources: number;
  uploaded_at: string;
}

/** The `svc-server` command of the repository's `@svc/server`. */
export const SVC_SERVER_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@svc/server/package.json')),
  'bin/svc-server.js',
);

/** `svc-server sourcemaps list --project <id> --json --data-dir <dir>`, parsed. */
export async function listSourceMaps(
  dataDir: string,
  projectId: number,
): Promise<ListedSourceMap[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    SVC_SERVER_BIN,
    'sourcemaps',
    'list',
    '--project',
    String(projectId),
    '--json',
    '--data-dir',
    dataDir,
  ]);
  return JSON.parse(stdout) as ListedSourceMap[];
}
