import { CHANNELS } from '../shared/channels.js';
import { createInterface } from 'node:readline';
import { randomInt } from 'node:crypto';
import { loadConfig } from '../config.js';
import { UsageError, type CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';
import { ChatSession, renderChatMessage } from './chat-session.js';
import { commandHelp } from './usage.js';

const RECEIVE_EVERY_MS = 300;

const HELP = [
  'Type a message and press Enter. A number picks a quick reply.',
  "  /agent-reply TEXT   answer as an agent from the service's tool (the bot steps aside)",
  '  /resolve            resolve the conversation as the agent (the bot comes back)',
  '  /quit               leave',
].join('\n');

/** `engage-bridge chat`: a customer in the terminal, against a simulator's control API. */
export async function chatCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const channel = (args.values.channel as string | undefined) ?? 'whatsapp';
  if (!(CHANNELS as readonly string[]).includes(channel))
    throw new UsageError(`--channel must be one of ${CHANNELS.join(', ')}`, commandHelp('chat'));
  const name = (args.values.name as string | undefined) ?? 'Ann';
  const id =
    (args.values.id as string | undefined) ??
    (channel === 'web' ? `visitor-${randomInt(1e6)}` : `3247${String(randomInt(1e7)).padStart(7, '0')}`);
  const env = { ...io.env };
  delete env.ENGAGE_ACCESS_TOKEN; // the chat talks to the simulator's control API only
  const config = loadConfig({ cwd: io.cwd, env, configFile: args.values.config as string | undefined });
  const baseUrl = io.env.ENGAGE_BASE_URL ? config.engage.baseUrl : 'http://127.0.0.1:4010';
  const session = new ChatSession(baseUrl, { channel, id, name });
  try {
    await session.begin();
  } catch (err) {
    io.stderr(
      `Cannot reach a simulator at ${baseUrl} (${(err as Error).message}). Start one with \`npm start\` or \`engage-bridge simulator\`, or set ENGAGE_BASE_URL.\n`,
    );
    return 1;
  }
  io.stdout(`Chatting as ${name} (${channel}/${id}) with ${baseUrl}.\n${HELP}\n`);
  const stop = new AbortController();
  const receiver = (async () => {
    while (!stop.signal.aborted) {
      try {
        for (const m of await session.receive()) io.stdout(renderChatMessage(m));
      } catch (err) {
        io.stderr(`(cannot read replies: ${(err as Error).message})\n`);
      }
      await new Promise((r) => setTimeout(r, RECEIVE_EVERY_MS));
    }
  })();
  const rl = createInterface({ input: io.stdin ?? process.stdin, terminal: false });
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === '') continue;
    try {
      if (line === '/quit') break;
      else if (line === '/help') io.stdout(`${HELP}\n`);
      else if (line === '/resolve') await session.resolve();
      else if (line.startsWith('/agent-reply ')) await session.agentReply(line.slice('/agent-reply '.length));
      else await session.say(line);
    } catch (err) {
      io.stderr(`${(err as Error).message}\n`);
    }
  }
  rl.close();
  stop.abort();
  await receiver;
  return 0;
}
