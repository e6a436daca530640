import { openSourceMapStore } from '../store/open.ts';
import type { SourceMapEntry } from '../store/sourcemap-types.ts';
import { type Flags, id, UsageError } from './args.ts';
import { table } from './format.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';

/** An upload as `sourcemaps list --json` prints it (the upload route's answer, plus the project). */
const listed = (e: SourceMapEntry) => ({
  id: e.id,
  project_id: e.projectId,
  release: e.release,
  path: e.path,
  debug_id: e.debugId,
  bytes: e.bytes,
  sources: e.sources,
  uploaded_at: new Date(e.uploadedAt).toISOString(),
});

/** `svc-server sourcemaps list|delete`: what builds uploaded, and removing it. */
export async function runSourceMaps(sub: string | undefined, flags: Flags): Promise<void> {
  if (sub !== 'list' && sub !== 'delete') {
    throw new UsageError(`Unknown command "sourcemaps ${sub ?? ''}".`);
  }
  const projectId = id(flags.project, '--project');
  const which = sub === 'delete' ? deleteTarget(flags) : undefined;
  const store = await openSourceMapStore({
    databaseUrl: databaseUrlOf(flags),
    dataDir: dataDirOf(flags),
  });
  const print = (value: unknown, text: () => string) =>
    console.log(flags.json ? JSON.stringify(value, null, 2) : text());
  try {
    if (!which) {
      const list = (await store.listSourceMaps(projectId, flags.release)).map(listed);
      return print(list, () =>
        list.length === 0
          ? `No source maps for project #${projectId}${flags.release ? ` release ${flags.release}` : ''}.`
          : table(
              ['ID', 'RELEASE', 'PATH', 'BYTES', 'SOURCES', 'DEBUG ID', 'UPLOADED'],
              list.map((m) => [
                m.id,
                m.release,
                m.path,
                m.bytes,
                m.sources,
                m.debug_id,
                m.uploaded_at,
              ]),
            ),
      );
    }
    const deleted = await store.deleteSourceMaps(projectId, which);
    const what = 'release' in which ? `release ${which.release}` : `upload #${which.id}`;
    return print({ deleted }, () =>
      deleted === 0
        ? `Nothing deleted: project #${projectId} has no ${what}.`
        : `Deleted ${deleted} source map${deleted === 1 ? '' : 's'} (${what}) of project #${projectId}.`,
    );
  } finally {
    await store.close();
  }
}

function deleteTarget(flags: Flags): { release: string } | { id: number } {
  if ((flags.release === undefined) === (flags.id === undefined)) {
    throw new UsageError('sourcemaps delete needs one of --release R or --id N.');
  }
  return flags.release !== undefined ? { release: flags.release } : { id: id(flags.id, '--id') };
}
