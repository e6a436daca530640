import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, spawnService } from '../helpers.ts';
import { type BuiltChunk, buildApp } from '../sourcemaps/build-fixture.ts';
import { uploadBody } from '../sourcemaps/stack.ts';

// `svc-server sourcemaps list|delete`, the real CLI against the data dir or database of a running
// service that builds uploaded to over HTTP.
let svc: Service;
let app: BuiltChunk;
beforeAll(async () => {
  [svc, app] = await Promise.all([spawnService(), buildApp()]);
});
afterAll(() => svc?.close());

const project = () => String(svc.projectId);

describe('svc-server sourcemaps', () => {
  it('lists what builds uploaded: release, path, size, sources, debug ID, upload time', async () => {
    const debugId = '0f1b6a52-2c3e-4bd8-9d5e-0a4c6f3b1e27';
    const body = uploadBody(app, 'cli-1', { debug_id: debugId });
    expect((await svc.upload(body)).status).toBe(201);
    expect((await svc.upload(uploadBody(app, 'cli-2', { path: 'assets/other.js' }))).status).toBe(
      201,
    );
    const r = await svc.cli('sourcemaps', 'list', '--project', project(), '--json');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout);
    expect(listed).toEqual([
      expect.objectContaining({ release: 'cli-2', path: 'assets/other.js', debug_id: null }),
      {
        id: expect.any(Number),
        project_id: svc.projectId,
        release: 'cli-1',
        path: app.path,
        debug_id: debugId,
        bytes: Buffer.byteLength(body),
        sources: 3,
        uploaded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    const one = JSON.parse(
      (await svc.cli('sourcemaps', 'list', '--project', project(), '--release', 'cli-1', '--json'))
        .stdout,
    );
    expect(one.map((m: { path: string }) => m.path)).toEqual([app.path]);
    const text = await svc.cli('sourcemaps', 'list', '--project', project());
    expect(text.stdout.split('\n')[0]).toMatch(
      /^ID\s+RELEASE\s+PATH\s+BYTES\s+SOURCES\s+DEBUG ID\s+UPLOADED$/,
    );
    expect(text.stdout).toContain(`cli-1    ${app.path}`);
  });

  it('deletes one upload by id or a whole release, and refuses an ambiguous delete', async () => {
    expect((await svc.upload(uploadBody(app, 'del-1'))).status).toBe(201);
    expect((await svc.upload(uploadBody(app, 'del-1', { path: 'assets/b.js' }))).status).toBe(201);
    const created = await (await svc.upload(uploadBody(app, 'del-2'))).json();
    const byId = await svc.cli(
      'sourcemaps',
      'delete',
      '--project',
      project(),
      '--id',
      String(created.data.id),
    );
    expect(byId.stdout).toContain(
      `Deleted 1 source map (upload #${created.data.id}) of project #${project()}.`,
    );
    const byRelease = await svc.cli(
      'sourcemaps',
      'delete',
      '--project',
      project(),
      '--release',
      'del-1',
      '--json',
    );
    expect(JSON.parse(byRelease.stdout)).toEqual({ deleted: 2 });
    const left = JSON.parse(
      (await svc.cli('sourcemaps', 'list', '--project', project(), '--json')).stdout,
    );
    expect(left.map((m: { release: string }) => m.release)).not.toContain('del-1');
    expect(left.map((m: { release: string }) => m.release)).not.toContain('del-2');
    const none = await svc.cli(
      'sourcemaps',
      'delete',
      '--project',
      project(),
      '--release',
      'del-1',
    );
    expect(none.stdout).toContain('Nothing deleted');
    const both = await svc.cli(
      'sourcemaps',
      'delete',
      '--project',
      project(),
      '--release',
      'x',
      '--id',
      '1',
    );
    expect(both.code).toBe(1);
    expect(both.output).toContain('sourcemaps delete needs one of --release R or --id N.');
  });
});
