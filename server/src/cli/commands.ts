import type { Admin } from '../admin.ts';
import type { Plan } from '../store/types.ts';
import { count, type Flags, id, required, UsageError } from './args.ts';
import { cardsTable, table } from './format.ts';
import { parseMember, STATE_OF } from './shared.ts';

const print = (flags: Flags, value: unknown, text: () => string) =>
  console.log(flags.json ? JSON.stringify(value, null, 2) : text());

/** One admin command: `sub` is its second word, `arg` the one after it. */
type Command = (admin: Admin, flags: Flags, sub: string, arg: string | undefined) => Promise<void>;

const accountCreate: Command = async (admin, flags) => {
  const a = await admin.createAccount({
    name: required(flags.name, 'name'),
    plan: required(flags.plan, 'plan') as Plan,
    members: (flags.member ?? []).map(parseMember),
  });
  return print(flags, a, () => `Created account #${a.id} "${a.name}" (${a.plan}).`);
};

const accountList: Command = async (admin, flags) => {
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
};

const projectCreate: Command = async (admin, flags) => {
  const p = await admin.createProject({
    accountId: id(flags.account, '--account'),
    name: required(flags.name, 'name'),
  });
  return print(flags, p, () => `Created project #${p.id} "${p.name}" in account #${p.accountId}.`);
};

const projectList: Command = async (admin, flags) => {
  const list = await admin.listProjects(flags.account ? id(flags.account, '--account') : undefined);
  return print(flags, list, () =>
    table(
      ['ID', 'ACCOUNT', 'NAME', 'STATE'],
      list.map((p) => [p.id, p.accountId, p.name, p.state]),
    ),
  );
};

const projectState: Command = async (admin, flags, sub, arg) => {
  const p = await admin.setProjectState(id(arg, 'Project'), STATE_OF[sub]!);
  return print(flags, p, () => `Project #${p.id} "${p.name}" is now ${p.state}.`);
};

const keyList: Command = async (admin, flags) => {
  const list = await admin.listKeys(id(flags.project, '--project'));
  return print(flags, list, () =>
    table(
      ['ID', 'TYPE', 'NAME', 'PUBLIC ID', 'ORIGINS', 'REVOKED'],
      list.map((k) => [k.id, k.kind, k.name, k.publicId, k.origins.join(' '), k.revokedAt]),
    ),
  );
};

const keyRevoke: Command = async (admin, flags, _sub, arg) => {
  await admin.revokeKey(id(arg, 'Key'));
  return print(
    flags,
    { revoked: Number(arg) },
    () => `Key #${arg} revoked; it is refused from now on.`,
  );
};

/**
 * Cards `cards list` prints at once, unless `--limit` says otherwise, and at most: a page by id,
 * the next one `--after` the last id shown (a project's cards are not read all at once).
 */
const CARDS_PER_PAGE = 100;
const CARDS_PER_PAGE_MAX = 1000;

const cardsList: Command = async (admin, flags) => {
  const projectId = id(flags.project, '--project');
  const limit = flags.limit === undefined ? CARDS_PER_PAGE : count(flags.limit, '--limit');
  if (limit > CARDS_PER_PAGE_MAX) throw new UsageError(`--limit is at most ${CARDS_PER_PAGE_MAX}.`);
  const after = flags.after === undefined ? undefined : id(flags.after, '--after');
  const page = await admin.cardsPage(projectId, { after, limit, search: flags.search });
  // JSON: the page's cards, as before paging; a full page may have more after its last id.
  const more = page.next === null ? '' : `\nMore cards: add --after ${page.next}`;
  return print(flags, page.cards, () => `${cardsTable(page.cards)}${more}`);
};

const notifySet: Command = async (admin, flags, sub) => {
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
};

const notifyList: Command = async (admin, flags) => {
  const list = await admin.listNotifications();
  return print(flags, list, () =>
    table(
      ['PROJECT', 'TO', 'LAST SENT'],
      list.map((n) => [n.projectId, n.recipients?.join(' ') ?? '(account members)', n.lastSentAt]),
    ),
  );
};

const mailList: Command = async (admin, flags) => {
  const mail = await admin.listMail(flags.account ? id(flags.account, '--account') : undefined);
  return print(flags, mail, () =>
    table(
      ['ID', 'ACCOUNT', 'TO', 'SUBJECT', 'SENT'],
      mail.map((m) => [m.id, m.accountId, m.to.join(' '), m.subject, m.sentAt ?? 'pending']),
    ),
  );
};

/** Each admin command by its words. */
const COMMANDS: Record<string, Command> = {
  'account create': accountCreate,
  'account list': accountList,
  'project create': projectCreate,
  'project list': projectList,
  'project pause': projectState,
  'project resume': projectState,
  'project archive': projectState,
  'key create': (admin, flags) => createKey(admin, flags),
  'key list': keyList,
  'key revoke': keyRevoke,
  'cards list': cardsList,
  'notify on': notifySet,
  'notify off': notifySet,
  'notify list': notifyList,
  'mail list': mailList,
};

/** The admin commands; values of new keys are printed once and never stored. */
export async function runAdminCommand(
  admin: Admin,
  command: string,
  sub: string | undefined,
  arg: string | undefined,
  flags: Flags,
): Promise<void> {
  const what = `${command} ${sub ?? ''}`.trim();
  if (!Object.hasOwn(COMMANDS, what)) throw new UsageError(`Unknown command "${what}".`);
  return COMMANDS[what]!(admin, flags, sub!, arg);
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
