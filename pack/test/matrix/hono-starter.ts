// The templates `create-hono` 0.19.5 copies for Cloudflare Workers, Bun, Deno and Node: the
// `templates/` folder of honojs/starter, which it downloads from GitHub. This machine cannot reach
// GitHub, so the matrix puts these files where create-hono keeps its download for `--offline`
// (giget's cache: `$XDG_CACHE_HOME/bluwy-giget/gh/honojs-starter/v0.19.tar.gz`), and the
// real create-hono then does what it always does (names the app, dates the Worker, installs).
// Reproduced as the templates read today (hono ^4.13.3, wrangler ^4.110.0, @hono/node-server
// ^2.1.1); the READMEs and editor settings, which change nothing here, are left out. Kept as
// strings so no formatter rewrites them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const TEMPLATE_FILES: Record<string, string> = {
  'cloudflare-workers/.gitignore': `# prod
dist/

# dev
.yarn/
!.yarn/releases
.vscode/*
!.vscode/launch.json
!.vscode/*.code-snippets
.idea/workspace.xml
.idea/usage.statistics.xml
.idea/shelf

# deps
node_modules/
.wrangler

# env
.env
.env.production
.dev.vars

# logs
logs/
*.log
npm-debug.log*
yarn-debug.log*
yarn-error.log*
pnpm-debug.log*
lerna-debug.log*

# misc
.DS_Store
`,
  'cloudflare-workers/package.json': `{
  "type": "module",
  "scripts": {
    "dev": "wrangler dev",
    "deploy": "wrangler deploy --minify",
    "cf-typegen": "wrangler types --env-interface CloudflareBindings"
  },
  "dependencies": {
    "hono": "^4.13.3"
  },
  "devDependencies": {
    "wrangler": "^4.110.0"
  }
}
`,
  'cloudflare-workers/src/index.ts': `import { Hono } from 'hono'

const app = new Hono()

app.get('/', (c) => {
  return c.text('Hello Hono!')
})

export default app
`,
  'cloudflare-workers/tsconfig.json': `{
  "compilerOptions": {
    "target": "ESNext",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "skipLibCheck": true,
    "lib": [
      "ESNext"
    ],
    "jsx": "react-jsx",
    "jsxImportSource": "hono/jsx"
  },
}`,
  'cloudflare-workers/wrangler.jsonc': `{
  "$schema": "node_modules/wrangler/config-schema.json",
  "name": "%%PROJECT_NAME%%",
  "main": "src/index.ts",
  "compatibility_date": "2025-08-03"
  // "compatibility_flags": [
  //   "nodejs_compat"
  // ],
  // "vars": {
  //   "MY_VAR": "my-variable"
  // },
  // "kv_namespaces": [
  //   {
  //     "binding": "MY_KV_NAMESPACE",
  //     "id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
  //   }
  // ],
  // "r2_buckets": [
  //   {
  //     "binding": "MY_BUCKET",
  //     "bucket_name": "my-bucket"
  //   }
  // ],
  // "d1_databases": [
  //   {
  //     "binding": "MY_DB",
  //     "database_name": "my-database",
  //     "database_id": ""
  //   }
  // ],
  // "ai": {
  //   "binding": "AI"
  // },
  // "observability": {
  //   "enabled": true,
  //   "head_sampling_rate": 1
  // }
}`,
  'bun/.gitignore': `# deps
node_modules/
`,
  'bun/package.json': `{
  "scripts": {
    "dev": "bun run --hot src/index.ts"
  },
  "dependencies": {
    "hono": "^4.13.3"
  },
  "devDependencies": {
    "@types/bun": "latest"
  }
}
`,
  'bun/src/index.ts': `import { Hono } from 'hono'

const app = new Hono()

app.get('/', (c) => {
  return c.text('Hello Hono!')
})

export default app
`,
  'bun/tsconfig.json': `{
  "compilerOptions": {
    "strict": true,
    "types": ["bun"],
    "jsx": "react-jsx",
    "jsxImportSource": "hono/jsx"
  }
}`,
  'deno/deno.json': `{
  "imports": {
    "hono": "jsr:@hono/hono@^4.13.3"
  },
  "tasks": {
    "start": "deno run --allow-net main.ts"
  },
  "compilerOptions": {
    "jsx": "precompile",
    "jsxImportSource": "hono/jsx"
  }
}
`,
  'deno/main.ts': `import { Hono } from 'hono'

const app = new Hono()

app.get('/', (c) => {
  return c.text('Hello Hono!')
})

Deno.serve(app.fetch)
`,
  'nodejs/.gitignore': `# dev
.yarn/
!.yarn/releases
.vscode/*
!.vscode/launch.json
!.vscode/*.code-snippets
.idea/workspace.xml
.idea/usage.statistics.xml
.idea/shelf

# deps
node_modules/

# env
.env
.env.production

# logs
logs/
*.log
npm-debug.log*
yarn-debug.log*
yarn-error.log*
pnpm-debug.log*
lerna-debug.log*

# misc
.DS_Store
`,
  'nodejs/package.json': `{
  "type": "module",
  "scripts": {
    "dev": "tsx watch src/index.ts",
    "build": "tsc",
    "start": "node dist/index.js"
  },
  "dependencies": {
    "@hono/node-server": "^2.1.1",
    "hono": "^4.13.3"
  },
  "devDependencies": {
    "@types/node": "^26.1.1",
    "tsx": "^4.23.0",
    "typescript": "^7.0.2"
  }
}
`,
  'nodejs/src/index.ts': `import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()

app.get('/', (c) => {
  return c.text('Hello Hono!')
})

serve({
  fetch: app.fetch,
  port: 3000
}, (info) => {
  console.log(\`Server is running on http://localhost:\${info.port}\`)
})
`,
  'nodejs/tsconfig.json': `{
  "compilerOptions": {
    "target": "ESNext",
    "module": "NodeNext",
    "strict": true,
    "verbatimModuleSyntax": true,
    "skipLibCheck": true,
    "types": [
      "node"
    ],
    "jsx": "react-jsx",
    "jsxImportSource": "hono/jsx",
    "rootDir": "./src",
    "outDir": "./dist"
  },
  "exclude": ["node_modules"]
}
`,
};

/** The version create-hono asks for: the starter's `v<major>.<minor>` branch. */
const CREATE_HONO_REF = 'v0.19';

/**
 * Puts the templates where create-hono 0.19.5 looks with `--offline`; returns the environment
 * entry that points it there (`XDG_CACHE_HOME`).
 */
export function seedCreateHono(work: string): { XDG_CACHE_HOME: string } {
  const root = join(work, 'starter', 'honojs-starter-snapshot');
  for (const [path, text] of Object.entries(TEMPLATE_FILES)) {
    mkdirSync(dirname(join(root, 'templates', path)), { recursive: true });
    writeFileSync(join(root, 'templates', path), text);
  }
  const cache = join(work, 'cache');
  const folder = join(cache, 'bluwy-giget', 'gh', 'honojs-starter');
  mkdirSync(folder, { recursive: true });
  execFileSync('tar', [
    '-czf',
    join(folder, `${CREATE_HONO_REF}.tar.gz`),
    '-C',
    dirname(root),
    'honojs-starter-snapshot',
  ]);
  return { XDG_CACHE_HOME: cache };
}
