import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, type HTTPReceiver } from '@slack/bolt';
import type { SlackLogger } from './ports.js';
import { verifySlackSignature } from './slack-signature.js';

export interface SlackRequestCheck {
  readonly signingSecret: string;
  /** Wall-clock milliseconds; Slack's timestamps are compared with it. */
  readonly nowMs: () => number;
  readonly logger: SlackLogger;
  readonly bodyLimit?: number;
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
 * through a TLS proxy and every request is signed.
 */
export function verifySlackRequests(receiver: HTTPReceiver, check: SlackRequestCheck): void {
  const inner = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    if (req.method !== 'POST') return inner(req, res);
    if (req.headers.origin !== undefined) {
      check.logger.warn({ reason: 'origin' }, 'refused a Slack request that came from a browser (Origin header)');
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
          check.logger.warn({ reason: verdict.reason }, 'refused a Slack request: its signature or timestamp does not hold');
          return refuse(res, 401);
        }
        // Bolt reads the buffered body from `rawBody` instead of the consumed stream.
        return inner(buffered, res);
      },
      (err: unknown) => {
        const e = err as { statusCode?: number };
        refuse(res, e.statusCode === 413 ? 413 : 400);
      },
    );
  };
}
