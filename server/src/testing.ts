import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from './admin.ts';
import { type ServerOptions, startServer } from './server.ts';
import type { CardWithVariants } from './store/types.ts';

export interface TestService {
  url: string;
  admin: Admin;
  accountId: number;
  projectId: number;
  /** Ready-made credentials of the project, for `createClient`. */
  keys: {
    apiKey: string;
    keyId: string;
    signingSecret: string;
    encryptionPublicKey: string;
    encryptionKeyId: string;
  };
  /** The project's cards with their variants. */
  cards(): Promise<CardWithVariants[]>;
  flushMail(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real service on 127.0.0.1 (random port) with a throw-away data dir and a Team-plan account,
 * one project and a publishable, a secret and an encryption key. For integration tests.
 */
export async function startTestService(opts: ServerOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, ...opts, dataDir });
  const { admin } = server;
  const account = await admin.createAccount({
    name: 'Test account',
    plan: 'team',
    members: [{ email: 'owner@test.local', role: 'owner' }],
  });
  const project = await admin.createProject({ accountId: account.id, name: 'Test project' });
  const pub = await admin.createPublishableKey({ projectId: project.id, name: 'test-browser' });
  const sec = await admin.createSecretKey({ projectId: project.id, name: 'test-server' });
  const enc = await admin.createEncryptionKey({ projectId: project.id, name: 'test-encryption' });
  return {
    url: server.url,
    admin,
    accountId: account.id,
    projectId: project.id,
    keys: {
      apiKey: pub.token,
      keyId: sec.keyId,
      signingSecret: sec.signingSecret,
      encryptionPublicKey: enc.publicKey,
      encryptionKeyId: enc.keyId,
    },
    cards: () => admin.listCards(project.id),
    flushMail: server.flushMail,
    async close() {
      await server.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
