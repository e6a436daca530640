// A throw-away copy of the parts a spec change reaches: the spec (changed by the test), the
// runtime, service and PHP SDK sources, and the generator's output for the changed spec written
// into the copy exactly as `npm run codegen` writes it into the repository. Nothing in the
// repository is touched; node_modules is linked, not copied.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { writeFiles } from '../../src/files.ts';
import { GENERATED_DIRS, generate, REPO_ROOT, SPEC_PATH } from '../../src/generate.ts';
import { type Doc, loadDocument } from '../../src/inspect/document.ts';

export interface Workspace {
  root: string;
  /** Repo-relative paths the generator rewrote for the changed spec. */
  changed: string[];
  /** Imports a module of the copy (TypeScript sources, transformed on import like the repo's own tests). */
  load<T>(path: string): Promise<T>;
  remove(): void;
}

/** Copies the spec, applies `change`, regenerates into a copy of runtime/, server/ and php/. */
export async function workspace(change: (spec: Doc) => void): Promise<Workspace> {
  const root = mkdtempSync(join(tmpdir(), 'svc-promise-'));
  const spec = await loadDocument(SPEC_PATH);
  change(spec);
  mkdirSync(join(root, 'spec'));
  const specPath = join(root, 'spec', 'openapi.yaml');
  writeFileSync(specPath, stringify(spec));
  for (const part of ['runtime', 'server']) {
    cpSync(join(REPO_ROOT, part, 'src'), join(root, part, 'src'), { recursive: true });
    cpSync(join(REPO_ROOT, part, 'package.json'), join(root, part, 'package.json'));
  }
  cpSync(join(REPO_ROOT, 'php', 'src'), join(root, 'php', 'src'), { recursive: true });
  cpSync(join(REPO_ROOT, 'php', 'autoload.php'), join(root, 'php', 'autoload.php'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const changed = await writeFiles(root, GENERATED_DIRS, await generate(specPath));
  return {
    root,
    changed,
    load: (path) => import(pathToFileURL(join(root, path)).href),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The spec's table rows of `extension` (`x-svc-method-table`, `x-svc-error-mapping`...). */
export function rows(spec: Doc, extension: string): Record<string, unknown>[] {
  return (spec[extension] as { rows: Record<string, unknown>[] }).rows;
}
