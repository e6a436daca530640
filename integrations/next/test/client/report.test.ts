import { afterEach, describe, expect, it } from 'vitest';
import { clientErrorReport, clientState, reportClientError } from '../../src/client/report.ts';
import { recordingClient } from '../helpers/recording-client.ts';

afterEach(() => {
  clientState().reportServerErrors = false;
});

const buildClientErrorTitle = (error: unknown) => clientErrorReport(error, 'window').title;

describe('clientErrorReport', () => {
  it('uses the class and the first message line, masked, in the browser', () => {
    expect(buildClientErrorTitle(new TypeError('x is undefined\n    at foo'))).toBe(
      'TypeError: x is undefined (browser)',
    );
    expect(buildClientErrorTitle('boom')).toBe('Error: boom (browser)');
    expect(buildClientErrorTitle({})).toBe('Error (browser)');
    expect(buildClientErrorTitle(new Error('order 7 lost'))).toBe(
      buildClientErrorTitle(new Error('order 8 lost')),
    );
  });

  it('is the failure of every integration its source is', () => {
    const error = new Error('x');
    expect(clientErrorReport(error, 'window')).toEqual({
      method: 'majorMedium',
      title: 'Error: x (browser)',
      tags: ['next', 'browser', 'browser-error'],
    });
    expect(clientErrorReport(error, 'unhandledrejection')).toEqual({
      method: 'majorMedium',
      title: 'Error: x (unhandled rejection in the browser)',
      tags: ['next', 'browser', 'browser-rejection'],
    });
    expect(clientErrorReport(error, 'boundary')).toEqual({
      method: 'majorMedium',
      title: 'Error: x (React component)',
      tags: ['next', 'browser', 'error-boundary'],
    });
  });

  it('clamps long messages', () => {
    expect(buildClientErrorTitle(new Error('a '.repeat(1000))).length).toBeLessThanOrEqual(140);
  });
});

describe('reportClientError', () => {
  it('reports an error object once, whoever sees it first', () => {
    const client = recordingClient();
    const error = new RangeError('bad index');
    expect(reportClientError(error, 'boundary', client)).toBe(true);
    expect(reportClientError(error, 'window', client)).toBe(false);
    expect(client.calls).toEqual([
      {
        method: 'majorMedium',
        title: 'RangeError: bad index (React component)',
        description: error,
        tags: ['next', 'browser', 'error-boundary'],
      },
    ]);
  });

  it('ignores control-flow errors', () => {
    const client = recordingClient();
    const redirect = Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;push;/' });
    expect(reportClientError(redirect, 'boundary', client)).toBe(false);
    expect(client.calls).toEqual([]);
  });

  it('leaves server errors (with a digest) to the server unless asked', () => {
    const client = recordingClient();
    const serverError = () => Object.assign(new Error('An error occurred'), { digest: '12345' });
    expect(reportClientError(serverError(), 'boundary', client)).toBe(false);
    clientState().reportServerErrors = true;
    expect(reportClientError(serverError(), 'boundary', client)).toBe(true);
    // The digest is per event: the description carries it (the error object), the tags do not.
    expect(client.calls[0]?.tags).toEqual(['next', 'browser', 'error-boundary']);
    expect((client.calls[0]!.description as { digest?: string }).digest).toBe('12345');
  });

  it('never throws and reports nothing without a client', () => {
    expect(reportClientError(new Error('x'), 'window', undefined)).toBe(false);
    const throwing = recordingClient();
    (throwing as any).majorMedium = () => {
      throw new Error('broken');
    };
    expect(reportClientError(new Error('x'), 'window', throwing)).toBe(false);
  });
});
