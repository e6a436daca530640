import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SvcErrorBoundary } from '../src/react.ts';
import { recordingClient } from './helpers.ts';

// The boundary's lifecycle methods, driven directly (no DOM in Node); a real render error in a real
// browser is covered by the Chromium e2e test of examples/vite.
describe('SvcErrorBoundary', () => {
  it('reports the render error, then calls onError', () => {
    const client = recordingClient();
    const onError = vi.fn();
    const boundary = new SvcErrorBoundary({ client, onError });
    const err = new RangeError('bad index');
    const info = { componentStack: '\n    at Broken' };
    boundary.componentDidCatch(err, info);
    expect(client.calls).toEqual([
      {
        method: 'majorMedium',
        title: 'RangeError: bad index (React component)',
        description: err,
        tags: ['vite', 'browser', 'error-boundary'],
      },
    ]);
    expect(onError).toHaveBeenCalledWith(err, info);
  });

  it('renders children, then the fallback after an error', () => {
    const child = createElement('p', null, 'ok');
    const boundary = new SvcErrorBoundary({
      children: child,
      fallback: (e: unknown) => `failed: ${(e as Error).message}`,
    });
    expect(boundary.render()).toBe(child);
    boundary.state = SvcErrorBoundary.getDerivedStateFromError(new Error('x'));
    expect(boundary.render()).toBe('failed: x');
  });
});
