// Browser cost of @svc/next in a real Next.js 16 production build (Turbopack, the default), side
// by side in one run with the floor (the same app with no error reporting) and the usual peer
// (@sentry/browser initialised from instrumentation-client). Measured as Chromium would load `/`:
// the gzip size of every <script src> in the served HTML, after `next build` + `next start`.
// Run: node bench/next/run.mjs   (needs `npm run build -w @svc/runtime -w @svc/next` first)
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NEXT = join(ROOT, 'node_modules/next/dist/bin/next');
const PUB = `svc_pub_${'0'.repeat(48)}`;

const APPS = {
  'no error reporting (floor)': null,
  '@svc/next/client (registerSvcClient + useSvcErrorReport)': {
    'instrumentation-client.js': `import { registerSvcClient } from '@svc/next/client';
registerSvcClient({ apiKey: '${PUB}' });`,
    'app/global-error.jsx': `'use client';
import { useSvcErrorReport } from '@svc/next/client';
export default function GlobalError({ error }) {
  useSvcErrorReport(error);
  return <html><body>failed</body></html>;
}`,
  },
  '@sentry/browser 11.12.0 (init, default integrations)': {
    'instrumentation-client.js': `import * as Sentry from '@sentry/browser';
Sentry.init({ dsn: 'https://public@o0.ingest.sentry.io/0' });`,
    'app/global-error.jsx': `'use client';
import * as Sentry from '@sentry/browser';
import { useEffect } from 'react';
export default function GlobalError({ error }) {
  useEffect(() => { Sentry.captureException(error); }, [error]);
  return <html><body>failed</body></html>;
}`,
  },
};

const BASE = {
  'next.config.mjs': `export default { turbopack: { root: ${JSON.stringify(ROOT)} }, outputFileTracingRoot: ${JSON.stringify(ROOT)} };`,
  'app/layout.jsx': `export default function Layout({ children }) { return <html><body>{children}</body></html>; }`,
  'app/page.jsx': `export default function Page() { return <p>hello</p>; }`,
};

// Fixture apps live under bench/next/.work so bare imports resolve from the repository's node_modules.
const WORK = join(HERE, '.work');
rmSync(WORK, { recursive: true, force: true });

function run(args, cwd, waitFor) {
  const child = spawn(process.execPath, [NEXT, ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      out += chunk;
      const match = waitFor && out.match(waitFor);
      if (match && /Ready in/.test(out)) resolve({ child, match });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) =>
      code === 0 && !waitFor ? resolve({ child }) : reject(new Error(`next ${args[0]}: ${out}`)),
    );
  });
}

async function measure(name, files) {
  const dir = join(WORK, name.replace(/\W+/g, '-').slice(0, 40));
  for (const [file, text] of Object.entries({ ...BASE, ...(files ?? {}) })) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const started = performance.now();
  await run(['build', '--turbopack'], dir);
  const buildMs = performance.now() - started;
  const { child, match } = await run(
    ['start', '-p', '0', '-H', '127.0.0.1'],
    dir,
    /Local:\s+(\S+)/,
  );
  try {
    const url = match[1];
    const html = await (await fetch(url)).text();
    const srcs = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
    let gzip = 0;
    for (const src of new Set(srcs)) {
      gzip += gzipSync(Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer())).length;
    }
    return { gzip, scripts: new Set(srcs).size, buildMs };
  } finally {
    child.kill();
  }
}

const kb = (n) => (n / 1024).toFixed(1);
const rows = [];
for (const [name, files] of Object.entries(APPS)) rows.push([name, await measure(name, files)]);
const floor = rows[0][1].gzip;
console.log(
  '| App | JS loaded by `/` (gzip KB) | over the floor (gzip KB) | scripts | next build (s) |',
);
console.log('|---|---|---|---|---|');
for (const [name, r] of rows) {
  console.log(
    `| ${name} | ${kb(r.gzip)} | ${kb(r.gzip - floor)} | ${r.scripts} | ${(r.buildMs / 1000).toFixed(0)} |`,
  );
}
rmSync(WORK, { recursive: true, force: true });
