import { describe, it, expect, afterEach } from 'vitest';
import { startHarness, botMessagesTo, callsOf, waitFor, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** Polls and settles until the customer has `count` bot messages (a busy machine may need more than one poll). */
async function answered(h: Harness, id: string, count: number): Promise<void> {
  await waitFor(
    `${count} bot messages to ${id}`,
    async () => {
      await h.settle();
      return botMessagesTo(h, id).length >= count;
    },
    20_000,
  );
}

describe('a customer in their own language', () => {
  it('greets and escalates a customer who writes in Dutch in Dutch, and tells the agent the language', async () => {
    h = await startHarness();
    await h.say('32470000101', 'Goedemiddag, wanneer zijn jullie open?');
    await answered(h, '32470000101', 2);
    const mentionId = await h.say('32470000101', 'Ik wil met een medewerker praten');
    await answered(h, '32470000101', 3);
    await waitFor(
      'the handover',
      async () => {
        await h!.settle();
        return callsOf(h!, 'POST', '/inbox/handover/whatsapp/32470000101').length > 0;
      },
      20_000,
    );
    const replies = botMessagesTo(h, '32470000101').map((r) => r.message);
    expect(replies[0]).toBe('Hallo Ann! Ik ben de assistent van de klantendienst.');
    expect(replies[1]).toContain('We zijn open tot 17:00. Onze openingsuren zijn maandag–vrijdag');
    expect(replies.at(-1)).toBe('Ik geef u door aan een collega. Die antwoordt hier in deze chat.');
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000101')).toHaveLength(1);
    const note = h.sim.state.mentions.get(mentionId)?.actions.find((a) => a.type === 'note');
    expect(note?.extra).toContain('language nl');
    const [esc] = await h.running.store.listEscalations({ status: 'open' });
    expect(esc?.summary).toContain('language nl');
  });

  it('switches language when the customer picks one from the language menu, and keeps it', async () => {
    h = await startHarness();
    const id = '32470000102';
    await h.say(id, 'hello');
    await answered(h, id, 1);
    await h.say(id, 'language');
    await answered(h, id, 2);
    const menu = botMessagesTo(h, id).at(-1)?.message ?? '';
    expect(menu).toContain('Which language do you prefer?\n1. English\n2. Nederlands\n3. Français');
    await h.say(id, '3');
    await answered(h, id, 3);
    expect(botMessagesTo(h, id).at(-1)?.message).toContain("D'accord, continuons en français.");
    await h.say(id, 'what time do you open?');
    await answered(h, id, 4);
    expect(botMessagesTo(h, id).at(-1)?.message).toMatch(/^Nous sommes ouverts jusqu'à 17:00\. Nos horaires sont lundi–vendredi/);
  });
});
