import {
  AuthError,
  ConnectionError,
  DEFAULT_CHANNEL_SERVICES,
  handoverServiceOf,
  sourceServiceOf,
  type ChannelServices,
  InsufficientScopeError,
  InvalidParameterError,
  NotFoundError,
  type EngageClient,
} from '../engage/index.js';
import { attempt, why, type Attempt } from './doctor-attempt.js';
import { fail, pass, skip, type Check } from './doctor-checklist.js';

/** The part of the client doctor uses; nothing here writes anything that exists. */
export type DoctorEngage = Pick<EngageClient, 'me' | 'topics' | 'users' | 'handover' | 'cannedResponses' | 'businessHours' | 'publisher'>;

export interface EngageTarget {
  readonly accountId: string | undefined;
  readonly channels: readonly string[];
  /** ENGAGE_CHANNEL_SERVICES; the defaults when absent. */
  readonly channelServices?: ChannelServices;
  readonly topicIds: readonly string[] | undefined;
}

// Ids that no real contact or user has: a probe addressed to them can change nothing.
const PLACEHOLDER_CONTACT = '0';
const PLACEHOLDER_USER = 'engage-bridge-doctor-no-such-user';

const SCOPE_FIX = (scope: string) => `the token lacks ${scope}: authorise the application again with ${scope}`;

/** The token: a revoked or unreachable one ends the Engage probes (everything after would fail the same way). */
function tokenCheck(accounts: Attempt<readonly { id: string | number }[]>): { check: Check; fatal: boolean } {
  const name = 'Engage token is valid';
  if (accounts.ok) return { check: pass(name, `its user reaches ${accounts.value.length} account(s)`), fatal: false };
  const err = accounts.error;
  if (err instanceof InsufficientScopeError) return { check: pass(name, 'accepted (it may not list accounts)'), fatal: false };
  if (err instanceof AuthError) return { check: fail(name, `${err.humanMessage}, then set the new ENGAGE_ACCESS_TOKEN`), fatal: true };
  if (err instanceof ConnectionError) return { check: fail(name, `${why(err)} (ENGAGE_BASE_URL)`), fatal: true };
  return { check: fail(name, why(err)), fatal: true };
}

type Accounts = Attempt<readonly { id: string | number; name?: string | undefined }[]>;

function accountCheck(accountId: string, accounts: Accounts, topics: Attempt<unknown>): Check {
  const name = `account ${accountId} is reachable`;
  const listed = accounts.ok ? accounts.value.find((a) => String(a.id) === accountId) : undefined;
  if (listed) return pass(name, listed.name ?? '');
  if (topics.ok) return pass(name, 'its topics answer');
  const reach =
    accounts.ok && accounts.value.length > 0
      ? ` (the token reaches: ${accounts.value.map((a) => `${a.id}${a.name ? ` "${a.name}"` : ''}`).join(', ')})`
      : '';
  if (topics.error instanceof NotFoundError) return fail(name, `Engage does not know this account: check ENGAGE_ACCOUNT_ID${reach}`);
  return fail(name, `${why(topics.error)}${reach}`);
}

function readScopeCheck(topics: Attempt<{ data: readonly { id: string | number; name?: string | undefined }[] }>): Check {
  const name = 'scope accounts_read';
  if (topics.ok) {
    const shown = topics.value.data
      .slice(0, 5)
      .map((t) => `${t.name ?? 'topic'} #${t.id}`)
      .join(', ');
    return pass(name, `granted (topics: ${shown || 'none'})`);
  }
  return fail(name, topics.error instanceof InsufficientScopeError ? SCOPE_FIX('accounts_read') : why(topics.error));
}

function topicsCheck(wanted: readonly string[], topics: readonly { id: string | number }[]): Check {
  const known = new Set(topics.map((t) => String(t.id)));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length === 0) return pass('configured topics exist', wanted.join(', '));
  return fail(
    'configured topics exist',
    `no topic ${missing.join(', ')} in the account: fix ENGAGE_TOPIC_IDS (known: ${[...known].join(', ') || 'none'})`,
  );
}

/**
 * accounts_write without writing: the write goes to a user that cannot exist, so nothing can change.
 * A missing scope is refused 403 (the simulator checks scopes before looking the item up, as OAuth
 * services commonly do); a 404 or a 400 means the request got past the scope check. Were the real
 * service to look the item up first, this reads as granted without proof, which is no worse than
 * not probing at all; every other write (a no-op mention update, a draft) would touch real data.
 */
async function writeScopeCheck(engage: DoctorEngage): Promise<Check> {
  const name = 'scope accounts_write';
  const answer = await attempt(() => engage.users.update(PLACEHOLDER_USER, { business_hours_schedule_id: '0' }));
  if (answer.ok) return pass(name, 'granted');
  const err = answer.error;
  if (err instanceof NotFoundError || (err instanceof InvalidParameterError && err.status === 400)) {
    return pass(name, 'not refused for scope (probed with a change to a user that does not exist: nothing was written)');
  }
  return fail(name, err instanceof InsufficientScopeError ? SCOPE_FIX('accounts_write') : why(err));
}

/** GET handover of a placeholder contact: "not found" proves the path and the scope; an item does too. */
async function handoverCheck(engage: DoctorEngage, channel: string, services: ChannelServices): Promise<Check> {
  const service = handoverServiceOf(services, channel);
  const name = `handover on ${channel}`;
  const answer = await attempt(() => engage.handover.get({ service, serviceId: PLACEHOLDER_CONTACT }));
  if (answer.ok || answer.error instanceof NotFoundError) return pass(name, `usable (service "${service}", scope accounts_handover)`);
  const err = answer.error;
  if (err instanceof InsufficientScopeError) return fail(name, SCOPE_FIX('accounts_handover'));
  if (err instanceof InvalidParameterError) {
    return fail(
      name,
      `Engage refused handover for service "${service}": ${err.description ?? err.humanMessage} (remove ${channel} from ENGAGE_CHANNELS)`,
    );
  }
  return fail(name, why(err));
}

/** GET publisher/add (read only): the account's own profile each served channel's replies go out from. */
async function replyFromChecks(engage: DoctorEngage, channels: readonly string[], services: ChannelServices): Promise<Check[]> {
  const answer = await attempt(() => engage.publisher.services({ type: 'reply' }));
  return channels.map((channel) => {
    const name = `replies on ${channel}`;
    if (!answer.ok) return fail(name, `GET publisher/add failed: ${why(answer.error)}`);
    const type = sourceServiceOf(services, channel);
    const listed = [...answer.value.services, ...answer.value.profiles].find((s) => s.type === type && s.service_id !== undefined);
    if (!listed)
      return fail(
        name,
        `Engage lists no ${type} profile of the account to reply from: connect one, or remove ${channel} from ENGAGE_CHANNELS`,
      );
    const label = 'name' in listed && typeof listed.name === 'string' ? ` "${listed.name}"` : '';
    return pass(name, `the bot replies from ${type} service ${listed.service_id}${label} (per conversation as GET publisher/add lists it)`);
  });
}

/** Token, account, scopes and handover per channel. `ready` is false when the account-level probes cannot run. */
export async function engageAccountChecks(engage: DoctorEngage, target: EngageTarget): Promise<{ checks: Check[]; ready: boolean }> {
  const accounts: Accounts = await attempt(() => engage.me.accounts());
  const token = tokenCheck(accounts);
  const checks = [token.check];
  if (token.fatal) {
    checks.push(skip('other Engage probes', 'skipped until the token works'));
    return { checks, ready: false };
  }
  if (target.accountId === undefined) {
    const reach = accounts.ok ? accounts.value.map((a) => String(a.id)).join(', ') : '';
    checks.push(fail('account is set', `ENGAGE_ACCOUNT_ID is not set${reach ? ` (the token reaches: ${reach})` : ''}`));
    checks.push(skip('other Engage probes', 'skipped until ENGAGE_ACCOUNT_ID is set'));
    return { checks, ready: false };
  }
  const topics = await attempt(() => engage.topics.list({ limit: 200 }));
  const account = accountCheck(target.accountId, accounts, topics);
  checks.push(account);
  if (!account.ok) {
    checks.push(skip('other Engage probes', 'skipped until the account is reachable'));
    return { checks, ready: false };
  }
  checks.push(readScopeCheck(topics));
  if (topics.ok && target.topicIds !== undefined) checks.push(topicsCheck(target.topicIds, topics.value.data));
  checks.push(await writeScopeCheck(engage));
  const services = target.channelServices ?? DEFAULT_CHANNEL_SERVICES;
  for (const channel of target.channels) checks.push(await handoverCheck(engage, channel, services));
  checks.push(...(await replyFromChecks(engage, target.channels, services)));
  return { checks, ready: true };
}
