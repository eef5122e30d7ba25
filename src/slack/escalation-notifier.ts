import type { types, webApi } from '@slack/bolt';
import {
  outcomeText,
  renderAnnouncement,
  renderEscalationNotice,
  type NoticeRendering,
  type RenderedMessage,
} from './escalation-blocks.js';
import type { NoticeQueue } from './notice-queue.js';
import type { EscalationNotice, SlackLogger, SlackNotifier } from './ports.js';

export interface PostedNotice {
  channel: string;
  ts: string;
  notice: EscalationNotice;
}

export interface EscalationNotifierOptions {
  client: webApi.WebClient;
  queue: NoticeQueue;
  logger: SlackLogger;
  /** channel id; without it notices are logged and skipped */
  channel: string | undefined;
  /** how many posted notices are remembered for later updates */
  rememberAtMost?: number;
  rendering?: NoticeRendering;
}

export interface EscalationNotifier extends SlackNotifier {
  /** Where the notice of an escalation was posted, when this process posted it. */
  posted(escalationId: string): PostedNotice | undefined;
  /** Forget a notice closed by a click, so a later `noticeUpdated` does not rewrite it again. */
  forget(escalationId: string): void;
  /** Rewrites any posted message through the queue (fallback when response_url cannot be used). */
  updateMessage(channel: string, ts: string, text: string, blocks: types.KnownBlock[]): void;
}

/** Escalation and health notices for managers, all through the queue so no caller waits on Slack. */
export function createEscalationNotifier(options: EscalationNotifierOptions): EscalationNotifier {
  const { client, queue, logger, channel } = options;
  const rendering = options.rendering ?? {};
  const rememberAtMost = options.rememberAtMost ?? 1000;
  const posted = new Map<string, PostedNotice>();

  function remember(entry: PostedNotice): void {
    posted.delete(entry.notice.escalationId);
    posted.set(entry.notice.escalationId, entry);
    // Map keeps insertion order: the first key is the oldest notice
    while (posted.size > rememberAtMost) {
      const oldest = posted.keys().next().value;
      if (oldest === undefined) break;
      posted.delete(oldest);
    }
  }

  function post(label: string, message: RenderedMessage, after?: (ts: string, target: string) => void, threadTs?: string): void {
    if (channel === undefined) {
      logger.info({ notice: label }, 'No SLACK_ESCALATION_CHANNEL configured: Slack notice skipped');
      return;
    }
    queue.push(label, async () => {
      const result = await client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
        unfurl_media: false,
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      });
      if (after !== undefined && typeof result.ts === 'string')
        after(result.ts, typeof result.channel === 'string' ? result.channel : channel);
    });
  }

  return {
    escalated(notice) {
      post(`escalation ${notice.escalationId}`, renderEscalationNotice(notice, undefined, rendering), (ts, target) =>
        remember({ channel: target, ts, notice }),
      );
    },
    escalationStuck(notice, idleMinutes) {
      const where = posted.get(notice.escalationId);
      const message = renderAnnouncement(
        'Escalation waiting',
        `${notice.customerName} (${notice.contactKey}, ${notice.channel}) has had no human activity for ${idleMinutes} minutes. Reason: ${notice.reason}.`,
      );
      post(`stuck ${notice.escalationId}`, message, undefined, where?.ts);
    },
    noticeUpdated(escalationId, outcome) {
      const where = posted.get(escalationId);
      if (where === undefined) {
        logger.debug({ escalationId }, 'No posted Slack notice known for this escalation: nothing to update');
        return;
      }
      posted.delete(escalationId);
      // The bridge's outcome is plain text and may name an agent: escaped like any other text.
      const message = renderEscalationNotice(where.notice, outcomeText(outcome), rendering);
      queue.push(`update ${escalationId}`, () =>
        client.chat.update({ channel: where.channel, ts: where.ts, text: message.text, blocks: message.blocks }),
      );
    },
    tokenRevoked() {
      post(
        'token revoked',
        renderAnnouncement(
          'Engage access token revoked',
          'The bridge can no longer reach Engage: the bot is silent and escalations are not delivered. Create a new access token, set ENGAGE_ACCESS_TOKEN and restart the bridge.',
        ),
      );
    },
    bridgePaused(reason) {
      post(
        'bridge paused',
        renderAnnouncement('Bridge paused', `${reason} Customers are not answered by the bot until it resumes (\`/engage bot resume\`).`),
      );
    },
    posted: (escalationId) => posted.get(escalationId),
    forget: (escalationId) => {
      posted.delete(escalationId);
    },
    updateMessage(target, ts, text, blocks) {
      queue.push(`update ${ts}`, () => client.chat.update({ channel: target, ts, text, blocks }));
    },
  };
}
