import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { FlowFileError, type Flows } from '../bot/index.js';
import { describeFlowFile, loadFlowFile, locateFlowFile } from '../settings/flow-file.js';
import { checkNow, fail, pass, type Check } from './doctor-checklist.js';
import { examplesCheck } from './doctor-examples-check.js';

export interface OfflineResult {
  readonly checks: Check[];
  /** The parsed flows, for the online probes (undefined when the file is not valid). */
  readonly flows: Flows | undefined;
}

const MAX_PROBLEMS_SHOWN = 3;

/** A flow file's problems on one line: the first few, each with its path and line, and how many more. */
function describeFlowError(err: unknown): string {
  if (!(err instanceof FlowFileError)) return (err as Error).message;
  const shown = err.problems
    .slice(0, MAX_PROBLEMS_SHOWN)
    .map((p) => `${p.path || '(file)'}${p.line === undefined ? '' : ` (line ${p.line})`}: ${p.message}`);
  const more = err.problems.length - shown.length;
  return `${err.fileName}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''} (fix the file or BRIDGE_FLOW_FILE)`;
}

async function flowFileCheck(config: Config, cwd: string): Promise<{ check: Check; flows: Flows | undefined }> {
  const name = 'flow file is valid';
  const location = locateFlowFile(config.bridge.flowFile, cwd);
  const file = describeFlowFile(location);
  try {
    const flows = await loadFlowFile(location.path);
    const count = (o: object) => Object.keys(o).length;
    const n = (o: object, word: string) => `${count(o)} ${word}${count(o) === 1 ? '' : 's'}`;
    const summary = `${n(flows.menus, 'menu')}, ${n(flows.intents, 'intent')}, ${n(flows.questions, 'question')}`;
    return { check: pass(name, `${file} (${summary})`), flows };
  } catch (err) {
    return { check: fail(name, describeFlowError(err)), flows: undefined };
  }
}

/** The checks that need no network: data directory, flow file (parsed as the bridge parses it), Slack settings. */
export async function offlineChecks(config: Config, cwd: string): Promise<OfflineResult> {
  const checks: Check[] = [
    checkNow('data directory is writable', () => {
      const dir = resolve(cwd, config.bridge.dataDir);
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      return dir;
    }),
  ];
  const { check, flows } = await flowFileCheck(config, cwd);
  checks.push(check);
  const examples = flows && examplesCheck(flows);
  if (examples) checks.push(examples);
  checks.push(
    checkNow('Slack settings are complete', () => {
      const s = config.slack;
      if (!s.botToken) return 'Slack disabled (no SLACK_BOT_TOKEN)';
      if (!s.appToken && !s.signingSecret) throw new Error('HTTP mode needs SLACK_SIGNING_SECRET (or set SLACK_APP_TOKEN)');
      if (Boolean(s.botId) !== Boolean(s.botUserId)) throw new Error('set both SLACK_BOT_ID and SLACK_BOT_USER_ID, or neither');
      if (s.managerIds.length === 0) return 'enabled, but SLACK_MANAGER_IDS is empty: nobody may run commands';
      return s.appToken ? 'Socket Mode' : `HTTP mode on port ${s.port}`;
    }),
  );
  return { checks, flows };
}
