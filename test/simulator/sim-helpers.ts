import { createSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator/index.js';
import type { Simulator } from '../../src/simulator/simulator.js';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface TestSim {
  sim: Simulator;
  url: string;
  close(): Promise<void>;
  /** An API call; `params` go in the query for GET and as a form body otherwise; objects become JSON text. */
  api(
    method: string,
    path: string,
    params?: Record<string, unknown>,
    opts?: { token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiAnswer>;
  control(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** A customer message through the control API; returns the mention. */
  inbound(channel: string, authorId: string, text: string, extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const encode = (params: Record<string, unknown>): URLSearchParams => {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return out;
};

async function answer(res: Response): Promise<ApiAnswer> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export async function startSim(opts: SimulatorOptions = {}): Promise<TestSim> {
  const handle = createSimulator(opts);
  const running: RunningSimulator = await handle.listen({ port: 0, host: '127.0.0.1' });
  const api: TestSim['api'] = async (method, path, params = {}, o = {}) => {
    const token = o.token === undefined ? 'sim-token' : o.token;
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...o.headers };
    const form = encode(params);
    if (method === 'GET') {
      const q = form.toString();
      return answer(await fetch(`${running.url}${path}${q ? (path.includes('?') ? '&' : '?') + q : ''}`, { headers }));
    }
    return answer(
      await fetch(`${running.url}${path}`, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: form.toString(),
      }),
    );
  };
  const control: TestSim['control'] = async (method, path, body) =>
    answer(
      await fetch(`${running.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const inbound: TestSim['inbound'] = async (channel, authorId, text, extra = {}) => {
    const res = await control('POST', '/_sim/inbound', { channel, author: { id: authorId, name: `Customer ${authorId}` }, text, ...extra });
    if (res.status !== 201) throw new Error(`inbound failed: ${res.status} ${res.text}`);
    return res.body as Record<string, unknown>;
  };
  return { sim: handle.sim, url: running.url, close: running.close, api, control, inbound };
}

/** A clock tests move by hand. */
export function manualClock(startMs: number): { now: () => number; set(ms: number): void; advance(ms: number): void } {
  let t = startMs;
  return {
    now: () => t,
    set: (ms) => {
      t = ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export const V = '20210601';
