// Whether this process may build code from strings (`Function`, `eval`): not in a host started with
// `node --disallow-code-generation-from-strings`, as hardened deployments run. What builds code
// from strings (Fastify's router, the SQLite driver's row factory) is given closures there.

/** Whether this process may build code from strings. */
export function codeFromStringsAllowed(): boolean {
  try {
    return typeof Function('return 0') === 'function';
  } catch {
    return false;
  }
}
