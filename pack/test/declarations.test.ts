// The declaration files of the packed packages, compiled by a consumer in the fresh app
// (see ./setup.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { run } from './app.ts';

const { app } = inject('fresh');

const CONSUMER = `/// <reference types="@svc/vite/virtual" />
import { createClient, type ClientSettings, type SvcOptions } from '@svc/runtime';
import { errorTitle, findSecretsInCode, flushWithin, knownSecrets } from '@svc/runtime/kit';
import { createFakeClient, type FakeClient, type FakeReport } from '@svc/runtime/testing';
import { type UploadResult, uploadSourceMaps } from '@svc/runtime/sourcemaps';
import { setupErrorHandler, type SvcExpressOptions } from '@svc/express';
import { svc } from '@svc/vite';
import { installGlobalHandlers } from '@svc/vite/client';
import { SvcErrorBoundary } from '@svc/vite/react';
import { installVueErrorHandler } from '@svc/vite/vue';
import { config, settings } from 'virtual:svc/config';
import { captureRequestError, registerSvc } from '@svc/next';
import { registerSvcClient, useSvcErrorReport } from '@svc/next/client';
import { withSvc } from '@svc/next/config';
import svcNuxt, { type ModuleOptions } from '@svc/nuxt';
import { startServer } from '@svc/server';
import { startTestService } from '@svc/server/testing';

const options: SvcOptions = { apiKey: 'svc_pub_x', environment: 'test' };
const where: ClientSettings = { serviceUrl: 'https://svc.example.com', uploadedSourceMaps: true };
const uploaded: Promise<UploadResult> = uploadSourceMaps({ folders: [], release: 'r' });
const express: SvcExpressOptions = { ...options, serviceUrl: where.serviceUrl };
const nuxt: Partial<ModuleOptions> = { serviceUrl: 'https://svc.example.com' };
const fake: FakeClient = createFakeClient(options);
const asClient: ReturnType<typeof createClient> = fake;
const firstTitle = (reports: readonly FakeReport[]): string | undefined => reports[0]?.title;
fake.assertReported('t', { severity: 'major', times: 1 });
export const used = [
  asClient, firstTitle(fake.reports), uploaded,
  createClient(options, where).major('t'),
  setupErrorHandler, express, svc({ sourceMaps: true }), installGlobalHandlers, SvcErrorBoundary,
  installVueErrorHandler, createClient(config, settings), captureRequestError, registerSvc,
  registerSvcClient, useSvcErrorReport, withSvc({}), svcNuxt, nuxt, startServer, startTestService,
  errorTitle(new Error('x'), 'GET /'), findSecretsInCode('', knownSecrets({})), flushWithin,
];
`;

const CONSUMER_CJS = `import { createClient } from '@svc/runtime';
import { errorTitle } from '@svc/runtime/kit';
import { createFakeClient } from '@svc/runtime/testing';
import { setupErrorHandler } from '@svc/express';
import { registerSvc } from '@svc/next';
import { registerSvcClient } from '@svc/next/client';
import { withSvc } from '@svc/next/config';

export const used = [createClient({}, { serviceUrl: 'http://127.0.0.1:1' }), errorTitle, createFakeClient, setupErrorHandler, registerSvc, registerSvcClient, withSvc];
`;

describe('the declaration files in a fresh app (tsc --noEmit, skipLibCheck: false)', () => {
  const tsconfig = (resolution: 'bundler' | 'node16', files: string[]) => ({
    compilerOptions: {
      target: 'es2022',
      lib: ['es2023', 'dom'],
      module: resolution === 'bundler' ? 'esnext' : 'node16',
      moduleResolution: resolution,
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      jsx: 'react-jsx',
      types: ['node'],
    },
    files,
  });

  /** Runs tsc on the consumer files; returns the errors located in our files, and the others. */
  async function check(resolution: 'bundler' | 'node16', files: string[]) {
    const config = `tsconfig.${resolution}.json`;
    writeFileSync(join(app, config), JSON.stringify(tsconfig(resolution, files), null, 2));
    const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
    const out = await run(process.execPath, [tsc, '-p', config], { cwd: app, maxBuffer: 1 << 24 })
      .then((r) => r.stdout)
      .catch((e: { stdout?: string }) => e.stdout ?? String(e));
    const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
    // Ours: the consumer files and everything under node_modules/@svc/. Errors that third-party
    // declarations raise with skipLibCheck off are not ours to fix (counted, not failed).
    const ours = errors.filter((l) => /^(consumer\.|node_modules\/@svc\/)/.test(l));
    console.log(
      `[pack] tsc ${resolution}: ${ours.length} errors in our files, ${errors.length - ours.length} in third-party declarations`,
    );
    return ours;
  }

  it('moduleResolution bundler, and node16 (ESM, and CJS for the dual packages): no error in our declaration files', async () => {
    writeFileSync(join(app, 'consumer.ts'), CONSUMER);
    writeFileSync(join(app, 'consumer.mts'), CONSUMER);
    writeFileSync(join(app, 'consumer.cts'), CONSUMER_CJS);
    // The two runs in parallel: each type-checks next's, vite's and vue's declarations too.
    const [bundler, node16] = await Promise.all([
      check('bundler', ['consumer.ts']),
      check('node16', ['consumer.mts', 'consumer.cts']),
    ]);
    expect({ bundler, node16 }).toEqual({ bundler: [], node16: [] });
  });
});
