import { buildExample } from './build';

// Builds examples/nuxt once per test run, before any e2e file (each file runs in its own worker).
export default async function setup(): Promise<void> {
  await buildExample();
}
