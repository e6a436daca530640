// CLI entry (`npm run codegen [-- --check] [-- --server <url>]`): parses flags and dispatches to
// generate -> write, or generate -> compare. Exit 1 on stale files or an invalid spec.
import { parseArgs } from 'node:util';
import { writeFiles, staleFiles } from './files.ts';
import { GENERATED_DIRS, generate, REPO_ROOT, SPEC_PATH } from './generate.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      server: { type: 'string' },
      spec: { type: 'string', default: SPEC_PATH },
    },
  });
  const artifacts = await generate(values.spec, { server: values.server });
  if (values.check) {
    const stale = await staleFiles(REPO_ROOT, GENERATED_DIRS, artifacts);
    for (const path of stale) console.error(`stale: ${path}`);
    if (stale.length > 0) {
      console.error(`${stale.length} generated file(s) are stale: run npm run codegen`);
      return 1;
    }
    console.log(`codegen: ${artifacts.length} generated files are up to date`);
    return 0;
  }
  const touched = await writeFiles(REPO_ROOT, GENERATED_DIRS, artifacts);
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
