import { describe, expect, it } from 'vitest';
import {
  buildRequestErrorTitle,
  normaliseRoutePath,
  requestErrorPlace,
  requestErrorReport,
} from '../../src/server/title.ts';

const app = (routeType: string, routePath: string) => ({
  routerKind: 'App Router',
  routePath,
  routeType,
});

describe('normaliseRoutePath', () => {
  it.each([
    ['/blog/[slug]', '/blog/[slug]'],
    ['/app/blog/[slug]/page', '/blog/[slug]'],
    ['/api/items/[id]/route', '/api/items/[id]'],
    ['/app/page', '/'],
    ['/', '/'],
    ['', '/'],
    ['dashboard', '/dashboard'],
  ])('%s -> %s', (input, expected) => {
    expect(normaliseRoutePath(input)).toBe(expected);
  });
});

describe('buildRequestErrorTitle', () => {
  it('names the method and the route pattern, not the concrete path', () => {
    const request = { path: '/blog/hello?x=1', method: 'GET' };
    expect(buildRequestErrorTitle(new Error('a'), request, app('render', '/blog/[slug]'))).toBe(
      'Error: a (GET /blog/[slug])',
    );
    expect(requestErrorPlace(request, app('render', '/app/blog/[slug]/page'))).toBe(
      'GET /blog/[slug]',
    );
  });

  it('is stable across events whose messages differ only in an id, and paths', () => {
    const a = buildRequestErrorTitle(
      new Error('user 1 missing'),
      { path: '/u/1', method: 'GET' },
      app('render', '/u/[id]'),
    );
    const b = buildRequestErrorTitle(
      new Error('user 2 missing'),
      { path: '/u/2', method: 'GET' },
      app('render', '/u/[id]'),
    );
    expect(a).toBe(b);
  });

  it('places route handlers and server actions the same way (method and pattern)', () => {
    const request = { path: '/api/boom', method: 'post' };
    expect(buildRequestErrorTitle(new TypeError('x'), request, app('route', '/api/boom'))).toBe(
      'TypeError: x (POST /api/boom)',
    );
    expect(buildRequestErrorTitle(new Error('x'), request, app('action', '/checkout'))).toBe(
      'Error: x (POST /checkout)',
    );
  });

  it('leaves the router kind out of the title (Next reports edge app routes as Pages Router)', () => {
    const request = { path: '/api/edge', method: 'GET' };
    const pages = { routerKind: 'Pages Router', routePath: '/api/edge', routeType: 'route' };
    expect(buildRequestErrorTitle('x', request, pages)).toBe(
      buildRequestErrorTitle('x', request, { ...pages, routerKind: 'App Router' }),
    );
  });
});

describe('requestErrorReport', () => {
  it('is the server-error failure of every integration: majorMedium, the same tags, no per-event value', () => {
    const error = Object.assign(new Error('x'), { digest: '4242' });
    const context = { ...app('render', '/x'), renderSource: 'react-server-components' };
    expect(requestErrorReport(error, { path: '/x', method: 'GET' }, context)).toEqual({
      method: 'majorMedium',
      title: 'Error: x (GET /x)',
      tags: ['next', 'server', 'server-error', 'method:GET'],
    });
  });
});
