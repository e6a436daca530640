import { describe, expect, it } from 'vitest';
import {
  clientTitle,
  patternFromPath,
  serverErrorTitle,
  serverTitle,
  vuePattern,
} from '../../../src/runtime/shared/title';

describe('titles', () => {
  it('builds stable server titles from the method and route pattern', () => {
    expect(serverTitle('get', '/api/items/:id')).toBe('GET /api/items/:id');
    expect(serverTitle(undefined, '(unhandledRejection)')).toBe('(unhandledRejection)');
  });
  it('builds stable client titles from the Vue route pattern', () => {
    expect(clientTitle('/items/:id')).toBe('Browser error on /items/:id');
    expect(clientTitle(undefined)).toBe('Browser error on (no route)');
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

describe('serverErrorTitle', () => {
  const event = (context: object, path = '/api/users/12?x=1') => ({
    method: 'POST',
    path,
    context,
  });
  it('prefers the recorded Vue route, then the Nitro pattern, then the masked path', () => {
    expect(
      serverErrorTitle({
        event: event({ svcRoute: '/orders/:id', matchedRoute: { path: '/**' } }),
      }),
    ).toBe('POST /orders/:id');
    expect(serverErrorTitle({ event: event({ matchedRoute: { path: '/api/users/:id' } }) })).toBe(
      'POST /api/users/:id',
    );
    expect(serverErrorTitle({ event: event({ matchedRoute: { path: '/**' } }) })).toBe(
      'POST /api/users/:param',
    );
    expect(serverErrorTitle({ event: event({}) })).toBe('POST /api/users/:param');
  });
  it('titles errors outside a request from the capture tags', () => {
    expect(serverErrorTitle({ tags: ['unhandledRejection'] })).toBe(
      'Unhandled rejection on the server',
    );
    expect(serverErrorTitle({ tags: ['uncaughtException'] })).toBe(
      'Uncaught exception on the server',
    );
    expect(serverErrorTitle(undefined)).toBe('Server error outside a request');
  });
});
