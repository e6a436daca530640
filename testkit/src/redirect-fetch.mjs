// Test seam: preloaded with `node --import`, it sends requests for the SDK's baked-in service
// address (SVC_REDIRECT_FROM) to a local reference service (SVC_REDIRECT_TO). Tests and examples
// only; the SDK itself has no base-URL option.
const from = process.env.SVC_REDIRECT_FROM;
const to = process.env.SVC_REDIRECT_TO;
if (from && to && typeof globalThis.fetch === 'function') {
  const original = globalThis.fetch;
  const rewrite = (url) => (url.startsWith(from) ? to + url.slice(from.length) : url);
  globalThis.fetch = function redirectedFetch(input, init) {
    if (typeof input === 'string') return original(rewrite(input), init);
    if (input instanceof URL) return original(rewrite(input.href), init);
    if (input instanceof Request && input.url.startsWith(from)) {
      return original(new Request(rewrite(input.url), input), init);
    }
    return original(input, init);
  };
}
