import { createError as createH3Error } from 'h3';
import { describe, expect, it } from 'vitest';
import {
  clientTitle,
  errorName,
  patternFromPath,
  serverTitle,
} from '../../../src/runtime/shared/title';

describe('titles', () => {
  it('names the error class, generic wrappers as Error', () => {
    expect(errorName(new TypeError('x'))).toBe('TypeError');
    expect(errorName(createH3Error({ statusCode: 500 }))).toBe('Error');
    expect(errorName('not an error')).toBe('Error');
  });
  it('builds stable client and server titles from the route pattern', () => {
    expect(clientTitle(new TypeError('id 1'), '/items/:id')).toBe('TypeError in /items/:id');
    expect(clientTitle(new Error('x'), undefined)).toBe('Error in (no route)');
    expect(serverTitle(new RangeError('x'), 'get', '/api/items/:id')).toBe(
      'RangeError in GET /api/items/:id',
    );
    expect(serverTitle(new Error('x'), undefined, '(unhandledRejection)')).toBe(
      'Error in (unhandledRejection)',
    );
  });
  it('derives a pattern from a concrete path when no router matched', () => {
    expect(patternFromPath('/api/users/123/posts?page=2')).toBe('/api/users/:id/posts');
    expect(patternFromPath('/o/3f2a9c1e-8b7d-4c6e-9a1b-2c3d4e5f6a7b')).toBe('/o/:id');
    expect(patternFromPath('/api/health')).toBe('/api/health');
    expect(patternFromPath('?x=1')).toBe('/');
  });
});
