import { loadConfig, ConfigError, type Config } from '../config.js';
import { createEngageClient, RateLimitRegistry } from '../engage/index.js';
import type { Flows } from '../bot/index.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';
import { why } from './doctor-attempt.js';
import { fail, failures, pass, renderChecklist, skip, type Check } from './doctor-checklist.js';
import { engageAccountChecks } from './doctor-engage-probes.js';
import { accountContentChecks } from './doctor-flow-probes.js';
import { offlineChecks } from './doctor-offline.js';
import { slackChecks } from './doctor-slack-checks.js';
import { nluCheck } from './doctor-nlu-check.js';
import { liveChecks } from './doctor-live-checks.js';
import { testContactRoundTrip } from './doctor-test-contact.js';

export { renderChecklist, type Check } from './doctor-checklist.js';
export { offlineChecks } from './doctor-offline.js';

// doctor answers in seconds: one retry at most, and a rate limit is reported rather than waited out.
const PROBE_RETRY = { maxAttempts: 2, maxRateLimitWaitMs: 5_000 };
const PROBE_TIMEOUT_MS = 15_000;

/** Token, account, scopes, handover per channel, the canned responses the flows name, the schedule. */
async function engageChecks(config: Config, flows: Flows | undefined, live: boolean, testContact: string | undefined): Promise<Check[]> {
  let engage: ReturnType<typeof createEngageClient>;
  try {
    engage = createEngageClient({
      baseUrl: config.engage.baseUrl,
      // Without an account id only /me/accounts is asked (it has none in its path); the placeholder is never sent.
      accountId: config.engage.accountId ?? 'unset',
      accessToken: config.engage.accessToken ?? '',
      version: config.engage.apiVersion,
      handoverServices: Object.values(config.engage.channelServices).map((c) => c.handoverService),
      timeouts: { requestMs: Math.min(config.engage.requestTimeoutMs, PROBE_TIMEOUT_MS) },
      retry: PROBE_RETRY,
      // Its own allocation: a doctor run is one short burst and must not wait behind other clients of the process.
      rateLimit: { registry: new RateLimitRegistry() },
    });
  } catch (err) {
    return [fail('Engage client settings', why(err))];
  }
  try {
    const { checks, ready } = await engageAccountChecks(engage, {
      accountId: config.engage.accountId,
      channels: config.engage.channels,
      channelServices: config.engage.channelServices,
      topicIds: config.engage.topicIds,
    });
    if (ready) checks.push(...(await accountContentChecks(engage, flows, config.bridge.businessHoursSchedule)));
    if (live && ready) {
      checks.push(
        ...(await liveChecks(engage, {
          nowMs: Date.now(),
          channels: config.engage.channels,
          channelServices: config.engage.channelServices,
          topicIds: config.engage.topicIds,
          schedule: config.bridge.businessHoursSchedule,
        })),
      );
      if (testContact !== undefined) {
        const topics = config.engage.topicIds ?? (await engage.topics.all()).map((t) => String(t.id));
        checks.push(
          ...(await testContactRoundTrip(engage, {
            contact: testContact,
            channels: config.engage.channels,
            channelServices: config.engage.channelServices,
            topicIds: topics,
          })),
        );
      }
    } else if (live) {
      checks.push(skip('live checks', 'skipped: the account could not be reached (see above)'));
    }
    return checks;
  } finally {
    await engage.close();
  }
}

/**
 * `engage-bridge doctor [--offline] [--live]`: a checklist of what the bridge needs; exit 1 when anything fails.
 * `--live` adds the go-live checks (`doctor-live-checks.ts`): each guess about the service a read can check.
 */
export async function doctorCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  let config: Config;
  try {
    config = loadConfig({ cwd: io.cwd, env: io.env, configFile: args.values.config as string | undefined });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stdout(renderChecklist([fail('settings are valid', err.problems.join('; '))]));
    io.stderr('engage-bridge doctor: the settings are not valid (see above)\n');
    return 1;
  }
  if (args.values['test-contact'] !== undefined && args.values.live !== true) {
    io.stderr('engage-bridge doctor: --test-contact goes with --live (doctor --live --test-contact <service>/<id>)\n');
    return 2;
  }
  if (args.values.offline === true && args.values.live === true) {
    io.stderr('engage-bridge doctor: --live reads the account, so it cannot go with --offline\n');
    return 2;
  }
  const checks: Check[] = [pass('settings are valid', config.demo ? 'demo mode (no ENGAGE_ACCESS_TOKEN)' : '')];
  const offline = await offlineChecks(config, io.cwd);
  checks.push(...offline.checks);
  if (args.values.offline === true) {
    checks.push(skip('online probes', 'skipped (--offline)'));
  } else if (config.demo) {
    checks.push(
      skip(
        'online probes',
        'skipped: demo mode has no account to probe (`start` runs the embedded simulator); set ENGAGE_ACCESS_TOKEN and ENGAGE_ACCOUNT_ID to check a real one',
      ),
    );
  } else {
    const testContact = args.values['test-contact'] as string | undefined;
    checks.push(...(await engageChecks(config, offline.flows, args.values.live === true, testContact)));
    checks.push(...(await slackChecks(config.slack)));
  }
  if (args.values.offline !== true) {
    const nlu = await nluCheck(config.nlu);
    if (nlu) checks.push(nlu);
  }
  io.stdout(renderChecklist(checks));
  const failed = failures(checks);
  if (failed.length === 0) {
    io.stdout(`All ${checks.filter((c) => !c.skipped).length} checks passed.\n`);
    return 0;
  }
  io.stderr(
    `engage-bridge doctor: ${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((c) => c.name).join('; ')}\n`,
  );
  return 1;
}
