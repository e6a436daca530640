// CLI entry (`npm run codegen [-- --check] [-- --server <url>] [-- --spec <file>]`): parses flags and dispatches to
// generate -> write, or generate -> compare. Exit 1 on stale files or an invalid spec.
import { parseArgs } from 'node:util';
import { staleFiles, writeFiles } from './files.ts';
import { GENERATED_DIRS, generate, REPO_ROOT, SPEC_PATH } from './generate.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      server: { type: 'string' },
      spec: { type: 'string', default: SPEC_PATH },
      // Where generated paths are resolved; the repo root unless a test points it at a copy.
      root: { type: 'string', default: REPO_ROOT },
    },
  });
  const root = values.root;
  const artifacts = await generate(values.spec, { server: values.server });
  if (values.check) {
    const stale = await staleFiles(root, GENERATED_DIRS, artifacts);
    for (const path of stale) console.error(`${path} is stale: run npm run codegen`);
    if (stale.length > 0) {
      console.error(`${stale.length} generated file(s) are stale: run npm run codegen`);
      return 1;
    }
    console.log(`codegen: ${artifacts.length} generated files are up to date`);
    return 0;
  }
  const touched = await writeFiles(root, GENERATED_DIRS, artifacts);
  for (const path of touched) console.log(`wrote ${path}`);
  console.log(`codegen: ${artifacts.length} files, ${touched.length} changed`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
