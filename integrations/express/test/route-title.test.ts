import { describe, expect, it } from 'vitest';
import { requestRoute, routeTitle } from '../src/route-title.ts';

const req = (method: string, baseUrl: string, path?: unknown, originalUrl = '') =>
  ({ method, baseUrl, originalUrl, route: path === undefined ? undefined : { path } }) as never;

describe('routeTitle', () => {
  it('uses the route pattern, never the URL', () => {
    expect(routeTitle(req('GET', '', '/users/:id', '/users/42'))).toBe('GET /users/:id');
  });
  it('prefixes the mount path of a router (inside the router)', () => {
    expect(routeTitle(req('POST', '/api', '/orders/:id'))).toBe('POST /api/orders/:id');
    expect(routeTitle(req('GET', '/api', '/'))).toBe('GET /api');
  });
  it('recovers the mount path from the URL once Express has reset baseUrl', () => {
    expect(routeTitle(req('GET', '', '/items/:id', '/api/items/9?x=1'))).toBe('GET /api/items/:id');
    expect(routeTitle(req('GET', '', '/', '/api'))).toBe('GET /api');
    expect(routeTitle(req('GET', '', '/files/*rest', '/v1/files/a/b'))).toBe('GET /files/*rest');
  });
  it('masks per-request values in a parameterised mount path', () => {
    expect(routeTitle(req('GET', '/users/42/posts', '/:postId'))).toBe(
      'GET /users/:param/posts/:postId',
    );
    expect(routeTitle(req('GET', '', '/:postId', '/users/42/posts/7'))).toBe(
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
    expect(requestRoute(req('POST', '/api', '/orders/:id'))).toEqual({
      method: 'POST',
      route: '/api/orders/:id',
    });
  });
});
