// The failure table as every integration reports it (src/kit/failures.ts over the generated
// FAILURES): one method, title place and tag set per kind, with no per-event value in the tags.
import { describe, expect, it } from 'vitest';
import { FAILURES } from '../../src/generated/integrations.gen.ts';
import { failurePlace, failureReport, isReported } from '../../src/kit/failures.ts';

describe('failureReport', () => {
  it('a server error: major, placed at the method and route pattern, tagged with the method', () => {
    const report = failureReport('server-error', 'express', new Error('Order 42 missing'), {
      method: 'get',
      route: '/orders/:id',
    });
    expect(report).toEqual({
      method: 'majorMedium',
      title: 'Error: Order <n> missing (GET /orders/:id)',
      tags: ['express', 'server', 'server-error', 'method:GET'],
    });
  });

  it('the same browser error gets the same method, title and tags in every framework but the name', () => {
    const error = new TypeError('x is not a function');
    const reports = (['vite', 'next', 'nuxt'] as const).map((framework) =>
      failureReport('browser-error', framework, error),
    );
    for (const [index, framework] of (['vite', 'next', 'nuxt'] as const).entries())
      expect(reports[index]).toEqual({
        method: 'majorMedium',
        title: 'TypeError: x is not a function (browser)',
        tags: [framework, 'browser', 'browser-error'],
      });
  });

  it('crashes are critical and high; boundaries name their component library', () => {
    expect(failureReport('uncaught-exception', 'nuxt', new Error('boom'))).toEqual({
      method: 'criticalHigh',
      title: 'Error: boom (uncaught exception)',
      tags: ['nuxt', 'server', 'uncaught-exception'],
    });
    expect(
      failureReport('error-boundary', 'vite', new Error('render'), { ui: 'React' }).title,
    ).toBe('Error: render (React component)');
    expect(failurePlace('browser-rejection')).toBe('unhandled rejection in the browser');
  });

  it('leaves out a tag whose value is unknown, and never a half-filled place', () => {
    const report = failureReport('server-error', 'express', new Error('x'), { route: '/a' });
    expect(report.tags).toEqual(['express', 'server', 'server-error']);
    expect(report.title).toBe('Error: x (/a)');
  });

  it('framework 4xx make no card; every reported kind has a method, a place and framework tags', () => {
    expect(isReported('client-error')).toBe(false);
    for (const [kind, failure] of Object.entries(FAILURES)) {
      if (!failure.report) continue;
      expect(isReported(kind as never), kind).toBe(true);
      expect(failure.tags[0], kind).toBe('{framework}');
      expect(failure.tags.join(' '), kind).not.toMatch(/\{(route|ui)\}/);
    }
  });
});
