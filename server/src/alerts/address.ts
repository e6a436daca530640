import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Which addresses a webhook may reach (server-side request forgery). Only admins add webhooks, and
// a self-hosted service usually posts to a chat server or a relay on its own network, so loopback
// and private addresses are allowed by default; what is refused by default is what no webhook
// needs and an attacker wants: link-local (cloud metadata services at 169.254.169.254,
// fd00:ec2::254), unspecified, multicast and broadcast addresses. An operator narrows it with
// `deny` (named sets or CIDRs, `all` for everything) and re-opens single hosts or ranges with
// `allow`, which wins over `deny`. Every address a host name resolves to is checked, at every
// attempt, and the connection goes to the address checked (no second lookup to rebind).

/** Named sets an `allow` or `deny` entry may use. */
const NAMED: Record<string, string[]> = {
  all: ['0.0.0.0/0', '::/0'],
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'],
  metadata: ['169.254.169.254/32', 'fd00:ec2::254/128', '100.100.100.200/32'],
  unspecified: ['0.0.0.0/8', '::/128'],
  multicast: ['224.0.0.0/4', 'ff00::/8', '255.255.255.255/32'],
};

/** Refused unless allowed: see the module comment. */
export const DEFAULT_DENY: readonly string[] = [
  'link-local',
  'metadata',
  'unspecified',
  'multicast',
];

export interface AddressPolicySettings {
  /**
   * Addresses webhooks may reach even when `deny` lists them: CIDRs (`10.1.2.0/24`), single
   * addresses, or the sets `loopback`, `private`, `link-local`, `metadata`, `unspecified`,
   * `multicast`, `all`. @default []
   */
  allow?: readonly string[];
  /**
   * Addresses webhooks may not reach, as `allow`; `none` for an empty list.
   * @default ['link-local', 'metadata', 'unspecified', 'multicast']
   */
  deny?: readonly string[];
}

export interface AddressPolicy {
  permits(address: string): boolean;
  /** The settings as given, for messages. */
  describe(): string;
}

export class AddressPolicyError extends Error {
  override name = 'AddressPolicyError';
}

function addEntry(list: BlockList, entry: string): void {
  const named = NAMED[entry];
  if (named) {
    for (const cidr of named) addEntry(list, cidr);
    return;
  }
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  const max = family === 6 ? 128 : 32;
  const prefix = bits === undefined ? max : Number(bits);
  if (
    family === 0 ||
    extra !== undefined ||
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > max
  ) {
    throw new AddressPolicyError(
      `"${entry}" is not an address, a CIDR range or one of ${Object.keys(NAMED).join(', ')}.`,
    );
  }
  list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
}

/** Entries from settings, a comma-separated variable or repeated flags alike. */
const entriesOf = (values: readonly string[]) =>
  values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

/** The policy of the settings; throws `AddressPolicyError` on an entry it cannot read. */
export function addressPolicy(settings: AddressPolicySettings = {}): AddressPolicy {
  const allowed = entriesOf(settings.allow ?? []);
  const denied = entriesOf(settings.deny ?? DEFAULT_DENY).filter((e) => e !== 'none');
  const allow = new BlockList();
  const deny = new BlockList();
  for (const entry of allowed) addEntry(allow, entry);
  for (const entry of denied) addEntry(deny, entry);
  return {
    permits(address) {
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      return allow.check(address, family) || !deny.check(address, family);
    },
    describe: () => `deny ${denied.join(',') || 'none'}; allow ${allowed.join(',') || 'none'}`,
  };
}

/**
 * The addresses `hostname` resolves to, every one permitted by the policy; throws
 * `AddressPolicyError` when one is not (a host that resolves to an allowed and a refused address
 * is refused whole), or the resolver's error.
 */
export async function permittedAddresses(
  hostname: string,
  policy: AddressPolicy,
): Promise<{ address: string; family: number }[]> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const found = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await lookup(bare, { all: true });
  const refused = found.find((a) => !policy.permits(a.address));
  if (refused) {
    throw new AddressPolicyError(
      `${refused.address} is not an address webhooks may reach (${policy.describe()}).`,
    );
  }
  return found;
}
