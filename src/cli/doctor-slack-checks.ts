import type { Config } from '../config.js';
import { probeSlack, type SlackProbeResult } from '../slack/probe-slack.js';
import { fail, pass, skip, type Check } from './doctor-checklist.js';

const AUTH_FIX: Record<string, string> = {
  invalid_auth: "Slack does not accept SLACK_BOT_TOKEN: copy the Bot User OAuth Token (xoxb-...) from the app's OAuth page",
  not_authed: 'no token reached Slack: set SLACK_BOT_TOKEN',
  account_inactive: 'the token belongs to a deleted user or an uninstalled app: reinstall the app and set the new SLACK_BOT_TOKEN',
  token_revoked: 'the token was revoked: reinstall the app and set the new SLACK_BOT_TOKEN',
  token_expired: 'the token expired: reinstall the app (or refresh the token) and set the new SLACK_BOT_TOKEN',
};

const CHANNEL_FIX: Record<string, string> = {
  channel_not_found:
    'Slack has no channel with this id that the bot can see: use the channel id (C0123...), not its name, and invite the bot',
};

function failureText(error: string, fixes: Record<string, string>): string {
  if (error.startsWith('request_failed'))
    return `cannot reach Slack (${error.slice('request_failed: '.length)}): check the network or SLACK_API_URL`;
  if (error === 'ratelimited') return 'Slack is rate limiting this token right now: run doctor again in a minute';
  return fixes[error] ?? `Slack answered ${error}`;
}

/** Turns a Slack probe into checklist lines. */
export function slackProbeChecks(result: SlackProbeResult, channel: string | undefined): Check[] {
  const token = 'Slack token works';
  if (!result.auth.ok) return [fail(token, `${result.auth.error}: ${failureText(result.auth.error, AUTH_FIX)}`)];
  const who = [result.auth.user && `bot @${result.auth.user}`, result.auth.team && `workspace ${result.auth.team}`]
    .filter(Boolean)
    .join(', ');
  const checks = [pass(token, who)];
  const name = 'Slack escalation channel';
  if (channel === undefined) {
    checks.push(pass(name, 'not set (SLACK_ESCALATION_CHANNEL): escalations are not announced in Slack'));
  } else if (!result.channel) {
    checks.push(skip(name, 'not checked'));
  } else if (result.channel.ok) {
    const c = result.channel;
    if (c.isArchived) checks.push(fail(name, `#${c.name ?? channel} is archived: unarchive it or set another SLACK_ESCALATION_CHANNEL`));
    else if (c.isMember === false)
      checks.push(
        pass(name, `#${c.name ?? channel} exists, but the bot is not a member: invite it (/invite) unless the app has chat:write.public`),
      );
    else checks.push(pass(name, `#${c.name ?? channel}`));
  } else if (result.channel.error === 'missing_scope') {
    // conversations.info needs channels:read, which the bridge itself does not: not being able to look is no failure.
    checks.push(
      pass(name, `${channel} cannot be looked up without the channels:read scope (optional); notices will show whether it works`),
    );
  } else {
    checks.push(fail(name, `${channel}: ${result.channel.error}: ${failureText(result.channel.error, CHANNEL_FIX)}`));
  }
  return checks;
}

/** `auth.test` and the escalation channel, when Slack is configured. */
export async function slackChecks(slack: Config['slack']): Promise<Check[]> {
  if (!slack.botToken) return [];
  const result = await probeSlack({
    token: slack.botToken,
    ...(slack.apiUrl === undefined ? {} : { apiUrl: slack.apiUrl }),
    ...(slack.escalationChannel === undefined ? {} : { channel: slack.escalationChannel }),
  });
  return slackProbeChecks(result, slack.escalationChannel);
}
