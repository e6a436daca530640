// `withSvc(nextConfig)`: the next.config changes are `env` (release, environment, the browser's
// service address) and server source maps for webpack builds. It never touches the webpack or
// Turbopack config, so both bundlers see the same app.

import { findSecretLeaks } from './secrets.ts';

export interface WithSvcOptions {
  /**
   * Address of your Svc service for the browser client (`NEXT_PUBLIC_SERVICE_URL`, inlined at
   * build time); the server reads `SERVICE_URL` at run time.
   * @default process.env.NEXT_PUBLIC_SERVICE_URL ?? process.env.SERVICE_URL
   */
  serviceUrl?: string;
  /**
   * Release tag value (`release:<value>`).
   * @default process.env.SERVICE_RELEASE ?? process.env.VERCEL_GIT_COMMIT_SHA
   */
  release?: string;
  /**
   * Environment tag value (`env:<value>`).
   * @default process.env.SERVICE_ENVIRONMENT ?? process.env.VERCEL_ENV ?? process.env.NODE_ENV
   */
  environment?: string;
  /**
   * Fail the build when a server-only credential would reach client code. `false` only warns.
   * @default true
   */
  failOnSecretLeak?: boolean;
  /** Environment to check and read defaults from (test seam). @default process.env */
  processEnv?: Record<string, string | undefined>;
}

/** The keys `withSvc` adds to `env` (inlined into server and browser code by Next). */
export const RELEASE_ENV = 'NEXT_PUBLIC_SERVICE_RELEASE';
export const ENVIRONMENT_ENV = 'NEXT_PUBLIC_SERVICE_ENVIRONMENT';
export const SERVICE_URL_ENV = 'NEXT_PUBLIC_SERVICE_URL';

// Any object: Next's own `NextConfig` interface has no index signature, and a user's config may be
// typed as it (create-next-app writes `const nextConfig: NextConfig = {...}`) or not at all.
type ConfigObject = object;
/** Next's function form: `(phase, { defaultConfig }) => config`, sync or async. */
type ConfigFunction<C, Ctx> = (phase: string, ctx: Ctx) => C | Promise<C>;

function envOf(config: object): Record<string, unknown> {
  const env = (config as { env?: unknown }).env;
  return env !== null && typeof env === 'object' ? (env as Record<string, unknown>) : {};
}

function nonEmpty(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => typeof v === 'string' && v !== '');
}

function apply<C extends ConfigObject>(config: C, options: WithSvcOptions): C {
  const processEnv = options.processEnv ?? process.env;
  const release = nonEmpty(
    options.release,
    processEnv.SERVICE_RELEASE,
    processEnv.VERCEL_GIT_COMMIT_SHA,
  );
  const environment = nonEmpty(
    options.environment,
    processEnv.SERVICE_ENVIRONMENT,
    processEnv.VERCEL_ENV,
    processEnv.NODE_ENV,
  );
  const serviceUrl = nonEmpty(
    options.serviceUrl,
    processEnv[SERVICE_URL_ENV],
    processEnv.SERVICE_URL,
  );
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(envOf(config))) if (typeof v === 'string') env[k] = v;
  if (release && env[RELEASE_ENV] === undefined) env[RELEASE_ENV] = release;
  if (environment && env[ENVIRONMENT_ENV] === undefined) env[ENVIRONMENT_ENV] = environment;
  if (serviceUrl && env[SERVICE_URL_ENV] === undefined) env[SERVICE_URL_ENV] = serviceUrl;

  const leaks = findSecretLeaks(processEnv, env);
  if (leaks.length > 0) {
    const lines = leaks.map((l) => `  - ${l.where}: ${l.what}`).join('\n');
    const message = `[svc/next] server-only credential would reach client code:\n${lines}\nKeep SERVICE_SIGNING_SECRET server-side (never NEXT_PUBLIC_, never in next.config env).`;
    if (options.failOnSecretLeak !== false) throw new Error(message);
    console.warn(message);
  }
  return { ...config, env, experimental: withServerSourceMaps(config) };
}

/**
 * `experimental.serverSourceMaps: true` unless the app set it: webpack then writes the server's
 * `.js.map` files (Turbopack always does), which the runtime reads to give a server error's
 * `file_name` and stack frames as source positions (`app/orders/[id]/page.tsx`).
 */
function withServerSourceMaps(config: object): Record<string, unknown> {
  const experimental = (config as { experimental?: unknown }).experimental;
  const current = experimental !== null && typeof experimental === 'object' ? experimental : {};
  return { serverSourceMaps: true, ...current };
}

/**
 * Wraps a Next config (object or function form). Adds `NEXT_PUBLIC_SERVICE_RELEASE`,
 * `NEXT_PUBLIC_SERVICE_ENVIRONMENT` and `NEXT_PUBLIC_SERVICE_URL` to `env` (existing values win)
 * and checks, when Next loads the
 * config (`next build`, `next dev`, `next start`), that no server-only credential is exposed.
 */
export function withSvc<C extends ConfigObject, Ctx>(
  config: ConfigFunction<C, Ctx>,
  options?: WithSvcOptions,
): (phase: string, ctx: Ctx) => Promise<C>;
export function withSvc<C extends ConfigObject>(config: C, options?: WithSvcOptions): C;
export function withSvc<C extends ConfigObject, Ctx>(
  config: C | ConfigFunction<C, Ctx>,
  options: WithSvcOptions = {},
) {
  if (typeof config === 'function') {
    const configFunction = config as ConfigFunction<C, Ctx>;
    return async (phase: string, ctx: Ctx) => apply(await configFunction(phase, ctx), options);
  }
  return apply(config, options);
}
