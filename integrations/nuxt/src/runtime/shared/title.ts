// Card titles. Titles must be stable to deduplicate (contract section 4), so they name the error
// class and the route *pattern* (`/api/items/:id`), never the concrete URL or the message.

const GENERIC = new Set(['H3Error', 'NuxtError', '']);

/** The error's class name; `Error` for h3/Nuxt wrappers and non-errors. */
export function errorName(error: unknown): string {
  const name = error instanceof Error ? error.name : undefined;
  return name && !GENERIC.has(name) ? name : 'Error';
}

/** Browser card title: `TypeError in /items/:id`. */
export function clientTitle(error: unknown, routePattern: string | undefined): string {
  return `${errorName(error)} in ${routePattern || '(no route)'}`;
}

/** Server card title: `TypeError in GET /api/items/:id`. */
export function serverTitle(error: unknown, method: string | undefined, pattern: string): string {
  return `${errorName(error)} in ${method ? `${method.toUpperCase()} ` : ''}${pattern}`;
}

/**
 * Fallback pattern when no router matched (errors in server middleware): the path without its
 * query, with id-like segments (numbers, UUIDs, long hex) replaced by `:id`.
 */
export function patternFromPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] || '/';
  return bare
    .split('/')
    .map((s) => (/^(\d+|[0-9a-f]{8}-[0-9a-f-]{27,}|[0-9a-f]{16,})$/i.test(s) ? ':id' : s))
    .join('/');
}
