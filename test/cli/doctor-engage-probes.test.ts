import { describe, expect, it } from 'vitest';
import { engageAccountChecks, type DoctorEngage } from '../../src/cli/doctor-engage-probes.js';
import { InsufficientScopeError, InvalidParameterError, NotFoundError, ServerError } from '../../src/engage/index.js';

const site = (path: string, status: number, serviceError: string, description: string) => ({
  method: 'GET',
  path,
  status,
  serviceError,
  description,
});

/** A client stand-in: each probe answers as given (a function that throws, or a value). */
function fakeEngage(answers: {
  accounts?: () => unknown;
  topics?: () => unknown;
  write?: () => unknown;
  handover?: (service: string) => unknown;
  services?: () => unknown;
}): DoctorEngage {
  const call = async (fn: (() => unknown) | undefined, fallback: unknown) => (fn ? fn() : fallback);
  return {
    me: { accounts: () => call(answers.accounts, [{ id: '1001', name: 'Demo' }]) },
    topics: { list: () => call(answers.topics, { data: [{ id: 2001, name: 'Support' }] }) },
    users: { update: () => call(answers.write, undefined) },
    handover: { get: async (ref: { service: string }) => (answers.handover ? answers.handover(ref.service) : { owner: 'agents' }) },
    publisher: {
      services: () =>
        call(answers.services, {
          profiles: [],
          services: [
            { type: 'whatsapp', service_id: '3225550100', name: 'Demo WhatsApp' },
            { type: 'viber', service_id: 'viber-1', name: 'Demo Viber' },
          ],
        }),
    },
  } as unknown as DoctorEngage;
}

const notFound = () => {
  throw new NotFoundError(site('/1001/x', 404, 'not_found', 'No such item'));
};
const target = { accountId: '1001', channels: ['whatsapp', 'viber'], topicIds: undefined };

describe('engageAccountChecks', () => {
  it('probes handover on the service ENGAGE_CHANNEL_SERVICES names for a channel', async () => {
    const asked: string[] = [];
    const engage = fakeEngage({
      write: notFound,
      handover: (service) => {
        asked.push(service);
        return notFound();
      },
    });
    const channelServices = {
      whatsapp: { handoverService: 'whatsapp', sourceService: 'whatsapp' },
      viber: { handoverService: 'viber-x', sourceService: 'viber' },
    };
    const { checks } = await engageAccountChecks(engage, { ...target, channelServices });
    expect(asked).toEqual(['whatsapp', 'viber-x']);
    expect(checks.find((c) => c.name === 'handover on viber')?.detail).toContain('service "viber-x"');
  });

  it('shows per served channel which service of the account the bot replies from, and fails a channel with none', async () => {
    const engage = fakeEngage({
      write: notFound,
      handover: notFound,
      services: () => ({ profiles: [], services: [{ type: 'whatsapp', service_id: '3225550100', name: 'Demo WhatsApp' }] }),
    });
    const { checks } = await engageAccountChecks(engage, target);
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName['replies on whatsapp']).toMatchObject({ ok: true });
    expect(byName['replies on whatsapp']?.detail).toContain('whatsapp service 3225550100 "Demo WhatsApp"');
    expect(byName['replies on viber']).toMatchObject({ ok: false });
    expect(byName['replies on viber']?.detail).toMatch(/no viber profile/);
  });

  it('fails handover on a channel whose service Engage refuses, naming the setting to change', async () => {
    const engage = fakeEngage({
      write: notFound,
      handover: (service) => {
        if (service === 'viber')
          throw new InvalidParameterError(
            site('/1001/inbox/handover/viber/0', 400, 'invalid_parameter', "Handover is not supported for service 'viber'"),
          );
        return notFound();
      },
    });
    const { checks } = await engageAccountChecks(engage, target);
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName['handover on whatsapp']?.ok).toBe(true);
    expect(byName['handover on viber']).toMatchObject({ ok: false });
    expect(byName['handover on viber']?.detail).toMatch(/refused handover for service "viber".*remove viber from ENGAGE_CHANNELS/);
  });

  it('accepts a token that may not list accounts, and checks the account through its topics', async () => {
    const engage = fakeEngage({
      accounts: () => {
        throw new InsufficientScopeError(site('/me/accounts', 403, 'insufficient_scope', 'needs accounts_read'));
      },
      write: notFound,
    });
    const { checks, ready } = await engageAccountChecks(engage, target);
    expect(ready).toBe(true);
    expect(checks[0]).toMatchObject({ name: 'Engage token is valid', ok: true });
    expect(checks[1]).toMatchObject({ name: 'account 1001 is reachable', ok: true, detail: 'its topics answer' });
  });

  it('asks for ENGAGE_ACCOUNT_ID when it is not set, naming the accounts the token reaches', async () => {
    const { checks, ready } = await engageAccountChecks(fakeEngage({}), { ...target, accountId: undefined });
    expect(ready).toBe(false);
    expect(checks[1]).toMatchObject({ ok: false, detail: 'ENGAGE_ACCOUNT_ID is not set (the token reaches: 1001)' });
    expect(checks[2]).toMatchObject({ skipped: true });
  });

  it('reports a server fault on the write probe as a failure with the service sentence', async () => {
    const engage = fakeEngage({
      write: () => {
        throw new ServerError({ ...site('/1001/settings/user/x', 503, 'server_error', 'down'), method: 'POST' });
      },
    });
    const { checks } = await engageAccountChecks(engage, target);
    expect(checks.find((c) => c.name === 'scope accounts_write')).toMatchObject({ ok: false });
    expect(checks.find((c) => c.name === 'scope accounts_write')?.detail).toMatch(/had a fault/);
  });
});
