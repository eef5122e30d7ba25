import type { Country } from './find-country.js';
import type { Actor, CommandDeps, ContactAddress, ContactKey } from './ports.js';
import type { MentionRef } from './references.js';

/** Contact tags: a plain list replaces them; `+a,-b` adds and removes. */
export type TagChange =
  | { readonly kind: 'replace'; readonly tags: readonly string[] }
  | { readonly kind: 'edit'; readonly add: readonly string[]; readonly remove: readonly string[] };

export interface ContactChanges {
  readonly company?: string;
  readonly comments?: string;
  readonly country?: Country;
  readonly tags?: TagChange;
  readonly setAttributes: Readonly<Record<string, string>>;
  readonly removeAttributes: readonly string[];
}

export type ParsedCommand =
  | { readonly name: 'help'; readonly topic?: string }
  | { readonly name: 'tag'; readonly mention: MentionRef; readonly add: readonly string[]; readonly remove: readonly string[] }
  | { readonly name: 'contact'; readonly contact: ContactAddress; readonly changes?: ContactChanges }
  | { readonly name: 'hours'; readonly schedule?: string }
  | { readonly name: 'handover'; readonly contact: ContactKey; readonly action: 'status' | 'bot' | 'agents' }
  | { readonly name: 'bot'; readonly action: 'pause' | 'resume'; readonly contact?: ContactKey }
  | { readonly name: 'escalations' }
  | { readonly name: 'csat'; readonly days: number }
  | { readonly name: 'release'; readonly sinceMinutes: number; readonly dryRun: boolean }
  | { readonly name: 'forget'; readonly contact: ContactKey; readonly dryRun: boolean }
  | { readonly name: 'status' }
  | { readonly name: 'shadow' };

export type CommandName = ParsedCommand['name'];
export type CommandOf<N extends CommandName> = Extract<ParsedCommand, { name: N }>;

export interface CommandAnswer {
  readonly ok: boolean;
  readonly text: string;
  /** What the command changed, for transports that render it (Slack blocks, tests). */
  readonly changed?: Readonly<Record<string, unknown>>;
  /** Set when the command was malformed: the usage of what was meant. */
  readonly usage?: string;
  /** What the audit entry names as the subject instead of `subject(command)` (`forget`: the contact's pseudonym). */
  readonly auditSubject?: string;
}

export type ParseResult =
  | { readonly ok: true; readonly command: ParsedCommand }
  | { readonly ok: false; readonly error: string; readonly usage: string; readonly commandName?: CommandName };

export type ArgsResult<N extends CommandName> = { ok: true; command: CommandOf<N> } | { ok: false; error: string };

export interface RunContext {
  readonly actor: Actor;
  readonly deps: CommandDeps;
}

/** One row of the registry: the grammar, the executor and the help text of a command. */
export interface CommandSpec<N extends CommandName> {
  readonly name: N;
  readonly usage: readonly string[];
  readonly summary: string;
  readonly details?: readonly string[];
  readonly examples: readonly string[];
  parse(args: readonly string[]): ArgsResult<N>;
  /** What the audit log names as the command's subject (never a forgotten contact's id: see `auditSubject`). */
  subject(command: CommandOf<N>): string;
  run(command: CommandOf<N>, ctx: RunContext): Promise<CommandAnswer>;
}

export type CommandTable = { readonly [N in CommandName]: CommandSpec<N> };
