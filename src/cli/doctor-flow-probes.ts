import type { BusinessHoursSchedule, CannedResponse } from '../engage/index.js';
import type { Flows } from '../bot/index.js';
import { foldText } from '../shared/fold-text.js';
import { attempt, why } from './doctor-attempt.js';
import { fail, pass, skip, type Check } from './doctor-checklist.js';
import type { DoctorEngage } from './doctor-engage-probes.js';

/** Each canned response the flows name (by name or id), with the menus that name it. */
export function namedCannedResponses(flows: Flows): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const [menu, spec] of Object.entries(flows.menus)) {
    if (spec.canned_response === undefined) continue;
    named.set(spec.canned_response, [...(named.get(spec.canned_response) ?? []), menu]);
  }
  return named;
}

// Read case-tolerantly, as the bridge does (business-hours-cache.ts, issue 26): BUTTONS is buttons.
const typeOf = (c: CannedResponse): string | undefined => c.type?.toLowerCase();

// The brain's own rule (quick-replies.ts): a buttons response whose id equals the reference, else whose name folds equal.
function findCanned(all: readonly CannedResponse[], ref: string): CannedResponse | undefined {
  return (
    all.find((c) => String(c.id) === ref && typeOf(c) === 'buttons') ??
    all.find((c) => c.name !== undefined && foldText(c.name) === foldText(ref) && typeOf(c) === 'buttons') ??
    all.find((c) => String(c.id) === ref || (c.name !== undefined && foldText(c.name) === foldText(ref)))
  );
}

function cannedCheck(ref: string, menus: readonly string[], all: readonly CannedResponse[]): Check {
  const name = `canned response "${ref}" (menu ${menus.join(', ')})`;
  const found = findCanned(all, ref);
  const fallback = 'the menu falls back to numbered options from the flow file';
  if (!found)
    return fail(
      name,
      `Engage has no canned response named or with id "${ref}": create one of type buttons, or fix canned_response (${fallback})`,
    );
  const label = `#${found.id}${found.name ? ` "${found.name}"` : ''}`;
  if (typeOf(found) !== 'buttons')
    return fail(name, `${label} is of type ${found.type ?? 'unknown'}, not buttons: quick replies need a buttons canned response`);
  const buttons = (found.data?.buttons ?? []).filter((b) => b.id && b.title);
  if (buttons.length === 0) return fail(name, `${label} has no buttons: add its quick replies in Engage (${fallback})`);
  return pass(name, `${label}, ${buttons.length} buttons: ${buttons.map((b) => b.title).join(', ')}`);
}

// The brain's own rule (survey.ts): the named one of the survey's type, else the account's first of that type.
function surveyCheck(survey: Flows['survey'], all: readonly CannedResponse[]): Check | undefined {
  if (survey.type === 'off') return undefined;
  const kind = survey.type;
  const ref = survey.canned_response;
  const name = `${kind.toUpperCase()} canned response${ref !== undefined ? ` "${ref}"` : ''} (survey)`;
  const ofKind = all.filter((c) => typeOf(c) === kind);
  const found =
    ref === undefined
      ? ofKind[0]
      : (ofKind.find((c) => String(c.id) === ref) ?? ofKind.find((c) => c.name !== undefined && foldText(c.name) === foldText(ref)));
  const fallback = `the bot asks with the flows' survey text instead; or set survey.type: off`;
  if (!found) {
    return fail(
      name,
      ref !== undefined
        ? `Engage has no canned response of type ${kind} named or with id "${ref}": fix survey.canned_response (${fallback})`
        : `the account has no canned response of type ${kind}: create one in Engage (${fallback})`,
    );
  }
  return pass(
    name,
    `#${found.id}${found.name ? ` "${found.name}"` : ''}${ref === undefined ? `, the account's first of type ${kind}` : ''}`,
  );
}

async function cannedChecks(engage: DoctorEngage, flows: Flows | undefined): Promise<Check[]> {
  const title = 'canned responses the flows name';
  if (flows === undefined) return [skip(title, 'skipped: the flow file is not valid')];
  const named = namedCannedResponses(flows);
  if (named.size === 0 && flows.survey.type === 'off') return [pass(title, 'the flows name none')];
  const listed = await attempt(async () => {
    const all: CannedResponse[] = [];
    for await (const page of engage.cannedResponses.listPages()) all.push(...page.data);
    return all;
  });
  if (!listed.ok) return [fail(title, `cannot list them: ${why(listed.error)}`)];
  const survey = surveyCheck(flows.survey, listed.value);
  return [...[...named].map(([ref, menus]) => cannedCheck(ref, menus, listed.value)), ...(survey ? [survey] : [])];
}

function describeSchedule(s: BusinessHoursSchedule): string {
  const now = s.is_active === undefined ? '' : s.is_active ? ', open now' : ', closed now';
  return `"${s.name}" #${s.id} (${s.timezone}, ${s.periods.length} periods${now})`;
}

async function scheduleCheck(engage: DoctorEngage, wanted: string | undefined): Promise<Check> {
  const name = 'business hours schedule';
  const listed = await attempt(async () => {
    const all: BusinessHoursSchedule[] = [];
    for await (const page of engage.businessHours.listPages({ limit: 200 })) all.push(...page.data);
    return all;
  });
  if (!listed.ok) return fail(name, `cannot list the schedules: ${why(listed.error)}`);
  const all = listed.value;
  const names = all.map((s) => `"${s.name}" #${s.id}`).join(', ') || 'none';
  if (wanted === undefined) {
    const first = all[0];
    if (!first) return fail(name, 'the account has no business hours schedule: create one in Engage (escalations need opening hours)');
    return pass(name, `${describeSchedule(first)}, the account's first (set BRIDGE_BUSINESS_HOURS_SCHEDULE to choose)`);
  }
  // The bridge's own rule (business-hours-cache.ts): by id, or by name ignoring case.
  const found = all.find((s) => String(s.id) === wanted || s.name.toLowerCase() === wanted.toLowerCase());
  if (!found) return fail(name, `no schedule with id or name "${wanted}": fix BRIDGE_BUSINESS_HOURS_SCHEDULE (the account has: ${names})`);
  return pass(name, describeSchedule(found));
}

/** What the flows and the hours need from the account: the canned responses the menus name, and the schedule. */
export async function accountContentChecks(
  engage: DoctorEngage,
  flows: Flows | undefined,
  businessHoursSchedule: string | undefined,
): Promise<Check[]> {
  return [...(await cannedChecks(engage, flows)), await scheduleCheck(engage, businessHoursSchedule)];
}
