import { describe, expect, it } from 'vitest';
import { readSchemas, readService } from '../../src/inspect/service.ts';
import { loadSpec } from '../helpers.ts';

describe('readService', () => {
  it("bakes servers[0].url and the operations' paths; --server overrides without a trailing slash", async () => {
    const doc = await loadSpec();
    expect(readService(doc)).toEqual({
      url: 'https://api.svc.example',
      tasksPath: '/api/v1/tasks',
      sourceMapsPath: '/api/v1/sourcemaps',
      alertDelivery: {
        signedPath: '/svc/alert',
        secretPrefix: 'svc_whsec_',
        retriedStatuses: [408, 425, 429],
        retriedFrom: 500,
      },
    });
    expect(readService(doc, 'http://localhost:8787//').url).toBe('http://localhost:8787');
  });

  it('finds each path by its operationId and refuses unknown, repeated or missing operations', async () => {
    const paths = async () => {
      const doc = await loadSpec();
      return { doc, paths: doc.paths as Record<string, Record<string, unknown>> };
    };
    let { doc, paths: p } = await paths();
    p['/api/v2/tasks'] = { post: { operationId: 'deleteTask' } };
    expect(() => readService(doc)).toThrow('/api/v2/tasks: unknown operationId deleteTask');
    ({ doc, paths: p } = await paths());
    p['/api/v2/tasks'] = { post: { operationId: 'createTask' } };
    expect(() => readService(doc)).toThrow('operationId createTask appears twice');
    ({ doc, paths: p } = await paths());
    delete p['/api/v1/sourcemaps'];
    expect(() => readService(doc)).toThrow('must have the operations createTask, uploadSourceMap');
    ({ doc, paths: p } = await paths());
    p['/api/v1/sourcemaps']!.get = { operationId: 'uploadSourceMap' };
    expect(() => readService(doc)).toThrow('/api/v1/sourcemaps: expected exactly one operation');
  });

  it('requires the alert webhook to say how it is signed and retried', async () => {
    const doc = await loadSpec();
    delete (doc.webhooks as { alert: { post: Record<string, unknown> } }).alert.post[
      'x-svc-delivery'
    ];
    expect(() => readService(doc)).toThrow('x-svc-delivery');
  });

  it('produces self-contained request schemas', async () => {
    const { taskReport, encryptedEnvelope } = readSchemas(await loadSpec());
    const text = JSON.stringify([taskReport, encryptedEnvelope]);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('x-svc');
    expect(taskReport.required).toEqual(['severity']);
  });
});
