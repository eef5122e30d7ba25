/** One line of `doctor`'s checklist: what was checked, whether it holds, and what to fix when it does not. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** Not run (and so not a failure): the line says why. */
  readonly skipped?: boolean;
}

export const pass = (name: string, detail = ''): Check => ({ name, ok: true, detail });
export const fail = (name: string, detail: string): Check => ({ name, ok: false, detail });
export const skip = (name: string, detail: string): Check => ({ name, ok: true, skipped: true, detail });

/** Runs a synchronous check: its return value is the detail, a thrown error's message the failure. */
export function checkNow(name: string, fn: () => string): Check {
  try {
    return pass(name, fn());
  } catch (err) {
    return fail(name, (err as Error).message);
  }
}

const mark = (c: Check): string => (c.skipped ? '–' : c.ok ? '✔' : '✘');

// Details are kept to one line so that each check reads as one line whatever the error text holds.
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

export function renderChecklist(checks: readonly Check[]): string {
  return `${checks.map((c) => `${mark(c)} ${c.name}${c.detail ? ` — ${oneLine(c.detail)}` : ''}`).join('\n')}\n`;
}

export const failures = (checks: readonly Check[]): Check[] => checks.filter((c) => !c.ok);
