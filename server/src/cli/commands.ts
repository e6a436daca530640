import type { Admin } from '../admin.ts';
import type { Plan } from '../store/types.ts';
import { type Flags, id, required, UsageError } from './args.ts';
import { cardsTable, table } from './format.ts';
import { parseMember, STATE_OF } from './shared.ts';

const print = (flags: Flags, value: unknown, text: () => string) =>
  console.log(flags.json ? JSON.stringify(value, null, 2) : text());

/** The admin commands; values of new keys are printed once and never stored. */
export async function runAdminCommand(
  admin: Admin,
  command: string,
  sub: string | undefined,
  arg: string | undefined,
  flags: Flags,
): Promise<void> {
  const what = `${command} ${sub ?? ''}`.trim();
  switch (what) {
    case 'account create': {
      const a = await admin.createAccount({
        name: required(flags.name, 'name'),
        plan: required(flags.plan, 'plan') as Plan,
        members: (flags.member ?? []).map(parseMember),
      });
      return print(flags, a, () => `Created account #${a.id} "${a.name}" (${a.plan}).`);
    }
    case 'account list': {
      const list = await admin.listAccounts();
      return print(flags, list, () =>
        table(
          ['ID', 'NAME', 'PLAN', 'MEMBERS'],
          list.map((a) => [
            a.id,
            a.name,
            a.plan,
            a.members.map((m) => `${m.email}:${m.role}`).join(' '),
          ]),
        ),
      );
    }
    case 'project create': {
      const p = await admin.createProject({
        accountId: id(flags.account, '--account'),
        name: required(flags.name, 'name'),
      });
      return print(
        flags,
        p,
        () => `Created project #${p.id} "${p.name}" in account #${p.accountId}.`,
      );
    }
    case 'project list': {
      const list = await admin.listProjects(
        flags.account ? id(flags.account, '--account') : undefined,
      );
      return print(flags, list, () =>
        table(
          ['ID', 'ACCOUNT', 'NAME', 'STATE'],
          list.map((p) => [p.id, p.accountId, p.name, p.state]),
        ),
      );
    }
    case 'project pause':
    case 'project resume':
    case 'project archive': {
      const p = await admin.setProjectState(id(arg, 'Project'), STATE_OF[sub!]!);
      return print(flags, p, () => `Project #${p.id} "${p.name}" is now ${p.state}.`);
    }
    case 'key create':
      return createKey(admin, flags);
    case 'key list': {
      const list = await admin.listKeys(id(flags.project, '--project'));
      return print(flags, list, () =>
        table(
          ['ID', 'TYPE', 'NAME', 'PUBLIC ID', 'ORIGINS', 'REVOKED'],
          list.map((k) => [k.id, k.kind, k.name, k.publicId, k.origins.join(' '), k.revokedAt]),
        ),
      );
    }
    case 'key revoke': {
      await admin.revokeKey(id(arg, 'Key'));
      return print(
        flags,
        { revoked: Number(arg) },
        () => `Key #${arg} revoked; it is refused from now on.`,
      );
    }
    case 'cards list': {
      const cards = await admin.listCards(id(flags.project, '--project'));
      return print(flags, cards, () => cardsTable(cards));
    }
    case 'notify on':
    case 'notify off': {
      const projectId = id(flags.project, '--project');
      const on = await admin.setNotifications({
        projectId,
        enabled: sub === 'on',
        to: flags.to,
      });
      return print(flags, on ?? { projectId, off: true }, () =>
        on
          ? `Project #${projectId} e-mails new cards and regressions to ${on.recipients?.join(', ') ?? 'every member of its account'} (at most one e-mail per few minutes).`
          : `Project #${projectId} sends no notifications now.`,
      );
    }
    case 'notify list': {
      const list = await admin.listNotifications();
      return print(flags, list, () =>
        table(
          ['PROJECT', 'TO', 'LAST SENT'],
          list.map((n) => [
            n.projectId,
            n.recipients?.join(' ') ?? '(account members)',
            n.lastSentAt,
          ]),
        ),
      );
    }
    case 'mail list': {
      const mail = await admin.listMail(flags.account ? id(flags.account, '--account') : undefined);
      return print(flags, mail, () =>
        table(
          ['ID', 'ACCOUNT', 'TO', 'SUBJECT', 'SENT'],
          mail.map((m) => [m.id, m.accountId, m.to.join(' '), m.subject, m.sentAt ?? 'pending']),
        ),
      );
    }
    default:
      throw new UsageError(`Unknown command "${what}".`);
  }
}

async function createKey(admin: Admin, flags: Flags): Promise<void> {
  const projectId = id(flags.project, '--project');
  const name = required(flags.name, 'name');
  const once = '(shown once: store it now, it cannot be displayed again)';
  switch (flags.type) {
    case 'publishable': {
      const k = await admin.createPublishableKey({ projectId, name, origins: flags.origin });
      return print(flags, k, () => `Publishable key #${k.id} ${once}\n  apiKey: ${k.token}`);
    }
    case 'secret': {
      const k = await admin.createSecretKey({ projectId, name });
      return print(
        flags,
        k,
        () =>
          `Secret key #${k.id} ${once}\n  keyId:         ${k.keyId}\n  signingSecret: ${k.signingSecret}`,
      );
    }
    case 'encryption': {
      const k = await admin.createEncryptionKey({ projectId, name });
      return print(
        flags,
        k,
        () =>
          `Encryption key #${k.id}\n  encryptionKeyId:     ${k.keyId}\n  encryptionPublicKey: ${k.publicKey}`,
      );
    }
    default:
      throw new UsageError('--type must be publishable, secret or encryption.');
  }
}
