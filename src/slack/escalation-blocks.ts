import type { types } from '@slack/bolt';
import { LIMITS, customerText, mrkdwn, plain, truncate } from './block-kit-text.js';
import { isServicePermalink } from './permalink-policy.js';
import type { EscalationNotice, TranscriptLine } from './ports.js';

type Block = types.KnownBlock;

export const ACTION_OPEN = 'engage_open_in_engage';
export const ACTION_RETURN_TO_BOT = 'engage_return_to_bot';
export const ACTION_MARK_RESOLVED = 'engage_mark_resolved';
export const ACTIONS_BLOCK_ID = 'engage_escalation_actions';

export interface RenderedMessage {
  text: string;
  blocks: Block[];
}

/** What a button carries back: enough to act without any lookup. */
export interface NoticeButtonValue {
  escalationId: string;
  contactKey: string;
}

const SPEAKER: Record<TranscriptLine['from'], string> = { customer: 'Customer', bot: 'Bot', agent: 'Agent' };
const TRANSCRIPT_LINE_MAX = 500;
/** A field's text after its label (`*Customer*\n`). */
const FIELD_MAX = LIMITS.fieldText - 16;

/** Slack renders the date in each reader's own time zone; the ISO text is the fallback. */
export function slackDate(epochMs: number): string {
  const seconds = Math.floor(epochMs / 1000);
  const iso = Number.isFinite(epochMs) ? new Date(epochMs).toISOString() : 'unknown time';
  return `<!date^${seconds}^{date_short_pretty} {time}|${iso}>`;
}

export function encodeButtonValue(value: NoticeButtonValue): string | undefined {
  const json = JSON.stringify({ e: value.escalationId, c: value.contactKey });
  return json.length <= LIMITS.buttonValue ? json : undefined;
}

export function decodeButtonValue(raw: unknown): NoticeButtonValue | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed = JSON.parse(raw) as { e?: unknown; c?: unknown };
    if (typeof parsed.e !== 'string' || typeof parsed.c !== 'string') return undefined;
    return { escalationId: parsed.e, contactKey: parsed.c };
  } catch {
    return undefined;
  }
}

/** The newest lines that fit one section, oldest first, with a marker when earlier ones were left out. */
export function transcriptExcerpt(lines: readonly TranscriptLine[], max = LIMITS.sectionText): string {
  const header = '*Transcript (latest)*';
  const omitted = '_… earlier messages omitted_';
  const kept: string[] = [];
  let used = header.length + 1 + omitted.length + 1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] as TranscriptLine;
    const rendered = `*${SPEAKER[line.from] ?? 'Someone'}:* ${customerText(line.text, TRANSCRIPT_LINE_MAX)}`;
    if (used + rendered.length + 1 > max) break;
    kept.unshift(rendered);
    used += rendered.length + 1;
  }
  if (kept.length === 0) return `${header}\n_no messages_`;
  const parts = kept.length < lines.length ? [header, omitted, ...kept] : [header, ...kept];
  return truncate(parts.join('\n'), max);
}

/** How a notice is rendered beyond its content. */
export interface NoticeRendering {
  /** Origins besides the service's own tool whose permalinks get an *Open in Engage* button (the API base). */
  readonly permalinkOrigins?: readonly string[];
}

function actionsBlock(notice: EscalationNotice, rendering: NoticeRendering): Block | undefined {
  const value = encodeButtonValue(notice);
  const elements: types.Button[] = [];
  if (isServicePermalink(notice.permalink, rendering.permalinkOrigins)) {
    elements.push({ type: 'button', action_id: ACTION_OPEN, text: { type: 'plain_text', text: 'Open in Engage' }, url: notice.permalink });
  }
  if (value !== undefined) {
    elements.push(
      { type: 'button', action_id: ACTION_RETURN_TO_BOT, style: 'primary', text: { type: 'plain_text', text: 'Return to bot' }, value },
      { type: 'button', action_id: ACTION_MARK_RESOLVED, text: { type: 'plain_text', text: 'Mark resolved' }, value },
    );
  }
  return elements.length > 0 ? { type: 'actions', block_id: ACTIONS_BLOCK_ID, elements } : undefined;
}

/**
 * The escalation notice; with `outcome` (mrkdwn the caller built or escaped) it is the closed version: no buttons,
 * who did what at the end. Every piece of customer or agent text is escaped, the fallback `text` included: Slack
 * renders it in notifications, where `<!channel>` would ping everyone.
 */
export function renderEscalationNotice(notice: EscalationNotice, outcome?: string, rendering: NoticeRendering = {}): RenderedMessage {
  const blocks: Block[] = [
    { type: 'header', text: { type: 'plain_text', text: plain(`Escalation: ${notice.customerName}`, LIMITS.headerText) } },
    {
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: `*Customer*\n${customerText(`${notice.customerName} (${notice.contactKey})`, FIELD_MAX)}` },
        { type: 'mrkdwn', text: `*Channel*\n${customerText(notice.channel, FIELD_MAX)}` },
        { type: 'mrkdwn', text: `*Reason*\n${customerText(notice.reason, FIELD_MAX)}` },
        { type: 'mrkdwn', text: `*Since*\n${slackDate(notice.since)}` },
      ],
    },
    { type: 'section', text: { type: 'mrkdwn', text: `*Summary*\n${customerText(notice.summary || '-', LIMITS.sectionText - 12)}` } },
    { type: 'section', text: { type: 'mrkdwn', text: transcriptExcerpt(notice.transcript) } },
  ];
  if (outcome === undefined) {
    const actions = actionsBlock(notice, rendering);
    if (actions !== undefined) blocks.push(actions);
  } else {
    blocks.push(outcomeBlock(outcome));
  }
  const fallback = customerText(
    `Escalation: ${notice.customerName} on ${notice.channel} (${notice.reason}). ${notice.summary}`,
    LIMITS.fallbackText,
  );
  return { text: truncate(outcome === undefined ? fallback : `${outcome} ${fallback}`, LIMITS.fallbackText), blocks };
}

/** The closing line as mrkdwn, from plain text that may carry an agent's name (escaped). */
export function outcomeText(plainOutcome: string): string {
  return customerText(plainOutcome, LIMITS.contextText);
}

export function outcomeBlock(outcome: string): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(outcome, LIMITS.contextText) }] };
}

/** The posted message after a click: same content, buttons gone, outcome appended. */
export function closeNoticeBlocks(posted: readonly unknown[], outcome: string): Block[] {
  const kept = posted.filter(
    (block): block is Block => typeof block === 'object' && block !== null && (block as { type?: unknown }).type !== 'actions',
  );
  return [...kept.slice(0, LIMITS.blocks - 1), outcomeBlock(outcome)];
}

/** A one-section announcement (token revoked, bridge paused, stuck escalation); `body` is plain text. */
export function renderAnnouncement(title: string, body: string): RenderedMessage {
  return {
    text: mrkdwn(`${title}: ${body}`, LIMITS.fallbackText),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: mrkdwn(`*${title}*\n${body}`, LIMITS.sectionText) } }],
  };
}
