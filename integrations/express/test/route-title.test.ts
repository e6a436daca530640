import { describe, expect, it } from 'vitest';
import { routeTitle } from '../src/route-title.ts';

const req = (method: string, baseUrl: string, path?: unknown) =>
  ({ method, baseUrl, route: path === undefined ? undefined : { path } }) as never;

describe('routeTitle', () => {
  it('uses the route pattern, never the URL', () => {
    expect(routeTitle(req('GET', '', '/users/:id'))).toBe('GET /users/:id');
  });
  it('prefixes the mount path of a router', () => {
    expect(routeTitle(req('POST', '/api', '/orders/:id'))).toBe('POST /api/orders/:id');
    expect(routeTitle(req('GET', '/api', '/'))).toBe('GET /api');
  });
  it('masks per-request values in a parameterised mount path', () => {
    expect(routeTitle(req('GET', '/users/42/posts', '/:postId'))).toBe(
      'GET /users/:param/posts/:postId',
    );
    expect(routeTitle(req('GET', '/t/3f2a9c1e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', '/'))).toBe(
      'GET /t/:param',
    );
  });
  it('handles regexp and array patterns and errors outside routes', () => {
    expect(routeTitle(req('GET', '', /^\/a\/\d+$/))).toBe('GET /^\\/a\\/\\d+$/');
    expect(routeTitle(req('GET', '', ['/a', '/b']))).toBe('GET /a|/b');
    expect(routeTitle(req('DELETE', ''))).toBe('DELETE (no route)');
  });
});
