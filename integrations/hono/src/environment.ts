// Where a Hono app's settings come from on each runtime: a Worker's env bindings (`c.env`, the
// `vars` and secrets of its wrangler config; a Durable Object's `env`), else the process
// environment of Bun, Deno and Node. The same `SERVICE_*` names everywhere (the kit's
// `readServerSettings`). Deno is asked first whether a variable may be read, so a run without
// `--allow-env` never stops at a permission prompt.
import { settingNames, settingVariable } from '@svc/runtime/kit';

type Env = Record<string, string | undefined>;

interface DenoLike {
  env: { get(name: string): string | undefined };
  permissions?: { querySync?(descriptor: { name: 'env'; variable: string }): { state: string } };
}

/** The variables Svc reads: each setting's `SERVICE_*` name, and `NODE_ENV` (the mode). */
export function variableNames(): string[] {
  return [...settingNames().map(settingVariable), 'NODE_ENV'];
}

/** Deno's variables Svc may read without a prompt (`--allow-env`, or a list naming them). */
function denoEnvironment(deno: DenoLike): Env {
  const env: Env = {};
  for (const name of variableNames()) {
    try {
      const state = deno.permissions?.querySync?.({ name: 'env', variable: name }).state;
      if (state === 'granted') env[name] = deno.env.get(name);
    } catch {
      // not readable: unset
    }
  }
  return env;
}

/** The process environment of Bun, Deno or Node; `{}` where there is none (workerd). */
export function processEnvironment(scope: object = globalThis): Env {
  try {
    const { Deno: deno, process } = scope as { Deno?: DenoLike; process?: { env?: Env } };
    if (deno?.env) return denoEnvironment(deno);
    return { ...(process?.env ?? {}) };
  } catch {
    return {};
  }
}

/**
 * The environment of a request or a Durable Object: the string bindings of `bindings` (a Worker's
 * `env`; on Bun, Deno and Node Hono passes the server or connection info there, which has none)
 * over the process environment.
 */
export function runtimeEnvironment(bindings: unknown, scope: object = globalThis): Env {
  const env = processEnvironment(scope);
  if (typeof bindings === 'object' && bindings !== null) {
    for (const name of variableNames()) {
      try {
        const value = (bindings as Record<string, unknown>)[name];
        if (typeof value === 'string') env[name] = value;
      } catch {
        // a binding that throws on read is no setting
      }
    }
  }
  return env;
}
