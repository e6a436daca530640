#!/usr/bin/env node
// svc-next: `init [dir]` writes the integration files; `check [distDir]` scans browser output.
import { resolve } from 'node:path';
import { knownSecrets } from '@svc/runtime/kit';
import { scanStatic } from './cli/check.ts';
import { initApp } from './cli/init.ts';

const [command, arg] = process.argv.slice(2);

if (command === 'init') {
  const dir = resolve(arg ?? '.');
  for (const { file, outcome } of initApp(dir)) {
    const note =
      outcome === 'kept-user-file' ? ' (your own file; add Svc to it by hand, see README)' : '';
    console.log(`${outcome.padEnd(14)} ${file}${note}`);
  }
} else if (command === 'check') {
  const distDir = resolve(arg ?? '.next');
  const leaks = scanStatic(distDir, knownSecrets(process.env));
  for (const leak of leaks) console.error(`leak: ${leak.file} contains ${leak.what}`);
  console.log(leaks.length === 0 ? `ok: no server-only credential under ${distDir}/static` : '');
  process.exitCode = leaks.length === 0 ? 0 : 1;
} else {
  console.log(
    'usage: svc-next init [appDir]    write instrumentation.ts, instrumentation-client.ts, app/global-error.tsx',
  );
  console.log(
    '       svc-next check [distDir]  fail if the SERVICE_SIGNING_SECRET value or a signing secret is in <distDir>/static',
  );
  process.exitCode = command === undefined || command === 'help' ? 0 : 1;
}
