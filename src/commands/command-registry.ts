import { botCommand } from './bot-command.js';
import type { CommandName, CommandSpec, CommandTable } from './command-types.js';
import { contactCommand } from './contact-command.js';
import { csatCommand } from './csat-command.js';
import { escalationsCommand } from './escalations-command.js';
import { forgetCommand } from './forget-command.js';
import { releaseCommand } from './release-command.js';
import { handoverCommand } from './handover-command.js';
import { hoursCommand } from './hours-command.js';
import { renderCommandHelp, renderOverview } from './render-help.js';
import { shadowCommand } from './shadow-command.js';
import { statusCommand } from './status-command.js';
import { tagCommand } from './tag-command.js';

const helpCommand: CommandSpec<'help'> = {
  name: 'help',
  usage: ['help [command]'],
  summary: 'lists the commands, or explains one with examples',
  examples: ['help', 'help contact'],
  parse(args) {
    const [topic, ...extra] = args;
    if (extra.length > 0) return { ok: false, error: 'help takes at most one command name' };
    if (topic === undefined) return { ok: true, command: { name: 'help' } };
    const spec = findCommand(topic);
    if (!spec) return { ok: false, error: `there is no command "${topic}": the commands are ${COMMAND_NAMES.join(', ')}` };
    return { ok: true, command: { name: 'help', topic: spec.name } };
  },
  subject: (c) => c.topic ?? 'commands',
  run: async (c) => {
    const spec = c.topic === undefined ? undefined : findCommand(c.topic);
    return { ok: true, text: spec ? renderCommandHelp(spec) : renderOverview(commandList()) };
  },
};

/** The one table of commands: the parser, the dispatch and the help text all read it. */
export const COMMANDS: CommandTable = {
  help: helpCommand,
  tag: tagCommand,
  contact: contactCommand,
  hours: hoursCommand,
  handover: handoverCommand,
  bot: botCommand,
  escalations: escalationsCommand,
  csat: csatCommand,
  release: releaseCommand,
  forget: forgetCommand,
  status: statusCommand,
  shadow: shadowCommand,
};

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function commandList(): CommandSpec<CommandName>[] {
  return COMMAND_NAMES.map((name) => COMMANDS[name] as CommandSpec<CommandName>);
}

export function findCommand(name: string): CommandSpec<CommandName> | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(COMMANDS, key) ? (COMMANDS[key as CommandName] as CommandSpec<CommandName>) : undefined;
}
