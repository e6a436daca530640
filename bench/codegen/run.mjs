// Wall time of one codegen run (all 7 generated files, --check) next to its peer (the openapi-typescript
// CLI, which emits only the wire types) and the floor (starting Node), same machine, same run.
// Usage: node bench/codegen/run.mjs [runs=5]
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const out = join(mkdtempSync(join(tmpdir(), 'svc-bench-codegen-')), 'wire.ts');
const cases = [
  ['floor: node -e 0', ['-e', '0']],
  [
    'peer: openapi-typescript CLI (wire types only)',
    ['node_modules/openapi-typescript/bin/cli.js', 'spec/openapi.yaml', '-o', out],
  ],
  ['@svc/codegen --check (7 files)', ['--import', 'tsx', 'codegen/src/main.ts', '--check']],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('| Command | median ms | min ms | max ms |\n|---|---|---|---|');
for (const [name, args] of cases) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    times.push(performance.now() - start);
  }
  console.log(
    `| ${name} | ${median(times).toFixed(0)} | ${Math.min(...times).toFixed(0)} | ${Math.max(...times).toFixed(0)} |`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
