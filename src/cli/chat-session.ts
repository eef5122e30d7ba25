/**
 * A customer's side of a chat with the simulator's control API: what you type becomes an inbound mention,
 * and what the account publishes to you (bot or agent) comes back in order. Transport-free of the terminal,
 * so tests drive it directly.
 */
export interface ChatButton {
  readonly id: string;
  readonly title: string;
}

export interface ChatMessage {
  readonly seq: number;
  readonly text: string;
  readonly buttons: readonly ChatButton[];
  readonly from: 'bot' | 'agent';
}

interface OutboundEntry {
  seq: number;
  message?: string | null;
  buttons?: ChatButton[] | null;
  mention_id?: string | number | null;
  /** `bot` (through the API) or `agent` (a person in the service's tool). */
  author?: string;
}

export class ChatSession {
  private readonly mentionIds = new Set<string>();
  private afterSeq = 0;
  lastButtons: readonly ChatButton[] = [];

  constructor(
    private readonly baseUrl: string,
    readonly customer: { readonly channel: string; readonly id: string; readonly name: string },
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  /** Starts reading outbound messages from now on, so an old conversation's history is not replayed. */
  async begin(): Promise<void> {
    const entries = await this.outbound();
    this.afterSeq = entries.reduce((max, e) => Math.max(max, e.seq), 0);
  }

  /** Sends a text; a bare number picks that quick reply on channels that show buttons. */
  async say(text: string): Promise<void> {
    const pick = /^\s*(\d{1,2})\s*$/.exec(text);
    const chosen = pick && this.customer.channel !== 'twilio' ? this.lastButtons[Number(pick[1]) - 1] : undefined;
    const body = chosen
      ? { channel: this.customer.channel, author: { id: this.customer.id, name: this.customer.name }, clicked_button: chosen.id }
      : { channel: this.customer.channel, author: { id: this.customer.id, name: this.customer.name }, text };
    const created = await this.control<{ id?: string | number; mention?: { id?: string | number } }>('POST', '/_sim/inbound', body);
    const id = created.id ?? created.mention?.id;
    if (id !== undefined) this.mentionIds.add(String(id));
  }

  async agentReply(text: string): Promise<void> {
    await this.control('POST', '/_sim/agent/reply', { channel: this.customer.channel, service_id: this.customer.id, text });
  }

  async resolve(): Promise<void> {
    await this.control('POST', '/_sim/agent/resolve', { channel: this.customer.channel, service_id: this.customer.id });
  }

  /** Messages published to this customer since the last call. */
  async receive(): Promise<ChatMessage[]> {
    const entries = await this.outbound();
    const mine: ChatMessage[] = [];
    for (const e of entries) {
      this.afterSeq = Math.max(this.afterSeq, e.seq);
      if (e.mention_id === undefined || e.mention_id === null || !this.mentionIds.has(String(e.mention_id))) continue;
      const buttons = e.buttons ?? [];
      if (buttons.length > 0) this.lastButtons = buttons;
      mine.push({ seq: e.seq, text: e.message ?? '', buttons, from: e.author === 'agent' ? 'agent' : 'bot' });
    }
    return mine;
  }

  private async outbound(): Promise<OutboundEntry[]> {
    const answer = await this.control<{ data?: OutboundEntry[] } | OutboundEntry[]>('GET', `/_sim/outbound?after=${this.afterSeq}`);
    return Array.isArray(answer) ? answer : (answer.data ?? []);
  }

  private async control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetchFn(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the simulator answered ${res.status} to ${method} ${path.split('?')[0]}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
}

/** How a message shows in the terminal: text, then quick replies as numbered buttons. */
export function renderChatMessage(m: ChatMessage): string {
  const who = m.from === 'agent' ? 'agent' : 'bot';
  const lines = [`${who}> ${m.text}`];
  m.buttons.forEach((b, i) => {
    lines.push(`      [${i + 1}] ${b.title}`);
  });
  return `${lines.join('\n')}\n`;
}
