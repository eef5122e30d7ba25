import type { InvalidListItem, PublisherMention } from '../../engage/index.js';
import type { BridgeEngage } from '../bridge-engage.js';

/**
 * How long one listing of published replies may serve later re-checks. After a restart every contact's first
 * reply is re-checked within seconds of the others; each reading its own pages cost about three list calls under
 * load (465 in one chaos campaign), all from the rate budget.
 */
const SHARE_MS = 10_000;
/** A listing starts this much before the mention that asked for it, so re-checks of a little older ones fit in it. */
const SHARE_PAD_MS = 30_000;

export interface Listed {
  /** The replies listed, oldest first. */
  readonly items: readonly PublisherMention[];
  /** Every page was read (no bound reached first). */
  readonly complete: boolean;
  /** Listed items that could not be read (skipped one by one; any of them might be the reply looked for). */
  readonly invalid: readonly InvalidListItem[];
}

interface Listing {
  /** Service clock: the listing's `date_from`. */
  readonly fromMs: number;
  /** Our clock: when its first page was asked for. */
  readonly startedAtMs: number;
  readonly result: Promise<Listed>;
}

/** The last listing per client (one bridge, one client). */
const listings = new WeakMap<object, Listing>();

/**
 * The published replies from `fromMs` (service clock) on, read by a listing that began after `notBeforeMs` (our
 * clock: when the attempt whose outcome is unknown ended, so a reply it published is in the list). A listing made
 * for another re-check is reused when it reaches back far enough, began late enough and is recent; otherwise one
 * is read, from a little earlier, for the next ones. Bounded in pages like a single re-check.
 */
export function sharedReplyListing(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  fromMs: number,
  notBeforeMs: number,
  now: () => number,
  limits: { readonly pages: number; readonly pageSize: number },
): Promise<Listed> {
  const last = listings.get(engage);
  const at = now();
  if (last && last.fromMs <= fromMs && last.startedAtMs >= notBeforeMs && at - last.startedAtMs <= SHARE_MS) return last.result;
  const from = fromMs - SHARE_PAD_MS;
  const listing: Listing = { fromMs: from, startedAtMs: at, result: readPages(engage, from, limits) };
  listings.set(engage, listing);
  // A failed listing, or one cut short by its bound, serves nobody else: the next re-check reads its own.
  const forget = () => {
    if (listings.get(engage) === listing) listings.delete(engage);
  };
  listing.result.then((l) => {
    if (!l.complete) forget();
  }, forget);
  return listing.result;
}

async function readPages(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  fromMs: number,
  limits: { readonly pages: number; readonly pageSize: number },
): Promise<Listed> {
  const items: PublisherMention[] = [];
  const invalid: InvalidListItem[] = [];
  let pages = 0;
  for await (const page of engage.publisherMentions.listPages({ dateFrom: new Date(fromMs), limit: limits.pageSize, status: 'posted' })) {
    pages++;
    items.push(...page.data);
    invalid.push(...(page.invalid ?? []));
    if (!page.paging?.next_url) return { items, complete: true, invalid };
    if (pages >= limits.pages) return { items, complete: false, invalid };
  }
  return { items, complete: true, invalid };
}
