import { describe, expect, it } from 'vitest';
import { patternFromPath, serverFailure, vuePattern } from '../../../src/runtime/shared/title';

describe('places', () => {
  it('reads the Vue route pattern', () => {
    expect(vuePattern('/items/:id()')).toBe('/items/:id');
    expect(vuePattern('/docs/:slug(.*)*')).toBe('/docs/:slug(.*)*');
  });
  it('derives a pattern from a concrete path when no router matched', () => {
    expect(patternFromPath('/api/users/123/posts?page=2')).toBe('/api/users/:param/posts');
    expect(patternFromPath('/o/3f2a9c1e-8b7d-4c6e-9a1b-2c3d4e5f6a7b')).toBe('/o/:param');
    expect(patternFromPath('/api/health')).toBe('/api/health');
    expect(patternFromPath('?x=1')).toBe('/');
  });
});

describe('serverFailure', () => {
  const event = (context: object, path = '/api/users/12?x=1') => ({
    method: 'POST',
    path,
    context,
  });
  const route = (context: object) => serverFailure({ event: event(context) });
  it('a request error is a server-error at the recorded Vue route, then the Nitro pattern, then the masked path', () => {
    expect(route({ svcRoute: '/orders/:id', matchedRoute: { path: '/**' } })).toEqual({
      kind: 'server-error',
      where: { method: 'POST', route: '/orders/:id' },
    });
    expect(route({ matchedRoute: { path: '/api/users/:id' } }).where.route).toBe('/api/users/:id');
    expect(route({ matchedRoute: { path: '/**' } }).where.route).toBe('/api/users/:param');
    expect(route({}).where.route).toBe('/api/users/:param');
  });
  it('an error outside a request is a crash, by the capture tags', () => {
    expect(serverFailure({ tags: ['unhandledRejection'] }).kind).toBe('unhandled-rejection');
    expect(serverFailure({ tags: ['uncaughtException'] }).kind).toBe('uncaught-exception');
    expect(serverFailure(undefined)).toEqual({ kind: 'uncaught-exception', where: {} });
  });
});
