// The files `nuxi init` writes for its default template (`minimal`: the `v4` branch of
// nuxt/starter, which nuxi 3.37.0 downloads from GitHub). This machine cannot reach GitHub, so the
// matrix serves these files to the real `nuxi init` through its own registry setting
// (`NUXI_INIT_REGISTRY`); nuxi then does what it always does (names the app, skips or runs the
// install). Reproduced as the template reads today (nuxt ^4.4.8, vue-router ^5.1.0); the
// README and favicon, which change nothing here, are left out. Kept as strings so no formatter
// rewrites them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';

export const STARTER_FILES: Record<string, string> = {
  'package.json': `{
  "name": "nuxt-app",
  "type": "module",
  "private": true,
  "scripts": {
    "build": "nuxt build",
    "dev": "nuxt dev",
    "generate": "nuxt generate",
    "preview": "nuxt preview",
    "postinstall": "nuxt prepare"
  },
  "dependencies": {
    "nuxt": "^4.4.8",
    "vue": "^3.5.38",
    "vue-router": "^5.1.0"
  }
}
`,
  'nuxt.config.ts': `// https://nuxt.com/docs/api/configuration/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  devtools: { enabled: true }
})
`,
  'app/app.vue': `<template>
  <div>
    <NuxtRouteAnnouncer />
    <NuxtWelcome />
  </div>
</template>
`,
  'tsconfig.json': `{
  // https://nuxt.com/docs/guide/concepts/typescript
  "files": [],
  "references": [
    {
      "path": "./.nuxt/tsconfig.app.json"
    },
    {
      "path": "./.nuxt/tsconfig.server.json"
    },
    {
      "path": "./.nuxt/tsconfig.shared.json"
    },
    {
      "path": "./.nuxt/tsconfig.node.json"
    }
  ]
}
`,
  '.gitignore': `# Nuxt dev/build outputs
.output
.data
.nuxt
.nitro
.cache
dist

# Node dependencies
node_modules

# Logs
logs
*.log

# Misc
.DS_Store
.fleet
.idea

# Local env files
.env
.env.*
!.env.example
`,
  'public/robots.txt': `User-Agent: *
Disallow:
`,
};

/**
 * A template registry for `nuxi init` on 127.0.0.1: `<url>/minimal.json` names a tarball of the
 * starter's files (root folder stripped by nuxi's downloader, as GitHub's are). Give its URL to
 * nuxi as `NUXI_INIT_REGISTRY`.
 */
export async function starterRegistry(
  work: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const root = join(work, 'starter-v4');
  for (const [path, text] of Object.entries(STARTER_FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const tarball = join(work, 'starter-v4.tar.gz');
  execFileSync('tar', ['-czf', tarball, '-C', work, 'starter-v4']);
  let base = '';
  const server: Server = createServer((req, res) => {
    if (req.url === '/minimal.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          name: 'minimal',
          description: 'Minimal setup for Nuxt 4',
          defaultDir: 'nuxt-app',
          url: 'https://nuxt.com',
          tar: `${base}/starter-v4.tar.gz`,
        }),
      );
    } else if (req.url === '/starter-v4.tar.gz') {
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(tarball));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
