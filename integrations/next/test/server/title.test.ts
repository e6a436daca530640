import { describe, expect, it } from 'vitest';
import {
  buildRequestErrorTags,
  buildRequestErrorTitle,
  normaliseRoutePath,
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
  it('names the route pattern and the kind of code, not the concrete path', () => {
    const request = { path: '/blog/hello?x=1', method: 'GET' };
    expect(buildRequestErrorTitle(new Error('a'), request, app('render', '/blog/[slug]'))).toBe(
      'Error: a (server component /blog/[slug])',
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

  it('keeps the method for route handlers only', () => {
    const request = { path: '/api/boom', method: 'post' };
    expect(buildRequestErrorTitle(new TypeError('x'), request, app('route', '/api/boom'))).toBe(
      'TypeError: x (route handler POST /api/boom)',
    );
    expect(buildRequestErrorTitle(new Error('x'), request, app('action', '/checkout'))).toBe(
      'Error: x (server action /checkout)',
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

describe('buildRequestErrorTags', () => {
  it('tags router kind, route type and render source, never the per-event digest', () => {
    const context = { ...app('render', '/x'), renderSource: 'react-server-components' };
    expect(buildRequestErrorTags(context)).toEqual([
      'next',
      'router:app-router',
      'route-type:render',
      'render-source:react-server-components',
    ]);
  });

  it('omits what is unknown', () => {
    expect(buildRequestErrorTags(app('route', '/api'))).toEqual([
      'next',
      'router:app-router',
      'route-type:route',
    ]);
  });
});
