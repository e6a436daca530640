import { describe, expect, it } from 'vitest';
import {
  patternFromPath,
  serverErrorPlace,
  serverPlace,
  vuePattern,
} from '../../../src/runtime/shared/title';

describe('places', () => {
  it('builds stable server places from the method and route pattern', () => {
    expect(serverPlace('get', '/api/items/:id')).toBe('GET /api/items/:id');
    expect(serverPlace(undefined, '(unhandledRejection)')).toBe('(unhandledRejection)');
  });
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

describe('serverErrorPlace', () => {
  const event = (context: object, path = '/api/users/12?x=1') => ({
    method: 'POST',
    path,
    context,
  });
  it('prefers the recorded Vue route, then the Nitro pattern, then the masked path', () => {
    expect(
      serverErrorPlace({
        event: event({ svcRoute: '/orders/:id', matchedRoute: { path: '/**' } }),
      }),
    ).toBe('POST /orders/:id');
    expect(serverErrorPlace({ event: event({ matchedRoute: { path: '/api/users/:id' } }) })).toBe(
      'POST /api/users/:id',
    );
    expect(serverErrorPlace({ event: event({ matchedRoute: { path: '/**' } }) })).toBe(
      'POST /api/users/:param',
    );
    expect(serverErrorPlace({ event: event({}) })).toBe('POST /api/users/:param');
  });
  it('places errors outside a request from the capture tags', () => {
    expect(serverErrorPlace({ tags: ['unhandledRejection'] })).toBe('unhandled rejection');
    expect(serverErrorPlace({ tags: ['uncaughtException'] })).toBe('uncaught exception');
    expect(serverErrorPlace(undefined)).toBe('server, outside a request');
  });
});
