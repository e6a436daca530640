import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';
import { withSvc } from '@svc/next/config';

// The monorepo root: Next would otherwise guess it from the nearest lockfile and warn.
const root = fileURLToPath(new URL('../..', import.meta.url));

// Next's defaults before create-next-app turned cacheComponents on: the fresh-app test covers those.
const nextConfig: NextConfig = {
  // The end-to-end tests build webpack and Turbopack output side by side.
  distDir: process.env.SVC_NEXT_DIST_DIR || '.next',
  turbopack: { root },
  outputFileTracingRoot: root,
};

export default withSvc(nextConfig, { sourceMaps: 'upload' });
