import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, type HTTPReceiver } from '@slack/bolt';
import type { SlackLogger } from './ports.js';
import { MAX_REQUEST_AGE_SECONDS, verifySlackSignature } from './slack-signature.js';
import { refusalReporter } from '../http/index.js';

export interface SlackRequestCheck {
  readonly signingSecret: string;
  /** Wall-clock milliseconds; Slack's timestamps are compared with it. */
  readonly nowMs: () => number;
  readonly logger: SlackLogger;
  readonly bodyLimit?: number;
  /** Counts a refused request by reason (the metric); the warnings are sampled. */
  readonly countRefused?: (reason: string) => void;
}

/**
 * Signatures seen within the window of a valid timestamp: the same signed request sent again (a replay by whoever
 * saw it pass) is refused. Bounded: past `max` entries the oldest go first.
 */
export class SeenSignatures {
  private readonly expiries = new Map<string, number>();
  constructor(private readonly max = 20_000) {}

  /** True the first time a signature is seen within its window; false for a replay. */
  firstSight(signature: string, nowSeconds: number): boolean {
    const expiry = this.expiries.get(signature);
    if (expiry !== undefined && expiry >= nowSeconds) return false;
    for (const [key, until] of this.expiries) {
      if (until >= nowSeconds && this.expiries.size < this.max) break;
      this.expiries.delete(key);
    }
    // Both directions of the timestamp are allowed: a signature stays refusable for twice the window.
    this.expiries.set(signature, nowSeconds + 2 * MAX_REQUEST_AGE_SECONDS);
    return true;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/**
 * Puts the project's own signature check in front of Bolt's HTTP receiver (which must be built with
 * `signatureVerification: false`). Bolt 5.1 refuses only timestamps from the past; a request stamped in the future
 * would stay replayable for as long as its stamp is ahead, so both directions are refused. A browser's `Origin`
 * is refused too: Slack never sends one. Forwarding headers are allowed here, because Slack must be reached
 * through a TLS proxy and every request is signed. A signed request seen once is refused when it comes again, and
 * a body past `bodyLimit` is refused while it is read. Refusals are counted; their warnings are sampled.
 */
export function verifySlackRequests(receiver: HTTPReceiver, check: SlackRequestCheck): void {
  const inner = receiver.requestListener;
  const seen = new SeenSignatures();
  const refused = refusalReporter('Slack requests', { ...(check.countRefused ? { count: check.countRefused } : {}), log: check.logger });
  receiver.requestListener = (req, res) => {
    if (req.method !== 'POST') return inner(req, res);
    if (req.headers.origin !== undefined) {
      refused('origin');
      return refuse(res, 403);
    }
    HTTPModuleFunctions.bufferIncomingMessage(req, check.bodyLimit ?? HTTPModuleFunctions.defaultBodyLimit).then(
      (buffered) => {
        const verdict = verifySlackSignature({
          signingSecret: check.signingSecret,
          timestamp: header(req, 'x-slack-request-timestamp') ?? '',
          signature: header(req, 'x-slack-signature') ?? '',
          rawBody: buffered.rawBody.toString('utf8'),
          nowSeconds: Math.floor(check.nowMs() / 1000),
        });
        if (!verdict.ok) {
          refused(verdict.reason);
          return refuse(res, 401);
        }
        if (!seen.firstSight(header(req, 'x-slack-signature') ?? '', Math.floor(check.nowMs() / 1000))) {
          refused('replay');
          return refuse(res, 401);
        }
        // Bolt reads the buffered body from `rawBody` instead of the consumed stream.
        return inner(buffered, res);
      },
      (err: unknown) => {
        const e = err as { statusCode?: number };
        refused(e.statusCode === 413 ? 'too-large' : 'unreadable');
        refuse(res, e.statusCode === 413 ? 413 : 400);
      },
    );
  };
}
