import { describe, expect, it } from 'vitest';
import { readSchemas, readService } from '../../src/inspect/service.ts';
import { loadSpec } from '../helpers.ts';

describe('readService', () => {
  it('bakes servers[0].url and the one path; --server overrides without a trailing slash', async () => {
    const doc = await loadSpec();
    expect(readService(doc)).toEqual({
      url: 'https://api.svc.example',
      tasksPath: '/api/v1/tasks',
      alertDelivery: {
        signedPath: '/svc/alert',
        secretPrefix: 'svc_whsec_',
        retriedStatuses: [408, 425, 429],
        retriedFrom: 500,
      },
    });
    expect(readService(doc, 'http://localhost:8787//').url).toBe('http://localhost:8787');
  });

  it('requires exactly one path (the contract has one endpoint)', async () => {
    const doc = await loadSpec();
    (doc.paths as Record<string, unknown>)['/api/v2/tasks'] = {};
    expect(() => readService(doc)).toThrow('exactly one path, got 2');
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
