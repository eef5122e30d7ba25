import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { openSqliteStore } from '../../src/storage/index.js';
import type { Store } from '../../src/storage/index.js';
import { DEFAULT_FLOWS, fakeIo, startSimulator, tempDir, type TestSimulator } from './cli-helpers.js';

const ANN = 'whatsapp:32475550001';
let sim: TestSimulator;
let dir: { path: string; remove(): Promise<void> };
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator();
  dir = await tempDir();
  // No bridge runs on this data directory (no socket there): forget opens the store itself.
  env = {
    ENGAGE_BASE_URL: sim.url,
    ENGAGE_ACCESS_TOKEN: 'sim-token',
    ENGAGE_ACCOUNT_ID: '1001',
    BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
    BRIDGE_STORE_ENGINE: 'sqlite',
    BRIDGE_DATA_DIR: join(dir.path, 'data'),
    BRIDGE_HTTP_HOST: '127.0.0.1',
    BRIDGE_HTTP_PORT: '0',
  };
  await withStore(async (store) => {
    await store.saveConversation({
      key: ANN,
      channel: 'whatsapp',
      serviceId: '32475550001',
      owner: 'bot',
      contactName: 'Ann',
      transcript: [{ at: Date.now(), from: 'customer', text: 'where is my parcel' }],
      updatedAt: Date.now(),
    });
    await store.audit({ at: Date.now(), actor: 'customer', action: 'survey answer', subject: ANN, result: '{"kind":"csat","score":2}' });
  });
});
afterAll(async () => {
  await sim.close();
  await dir.remove();
});

async function withStore<T>(use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openSqliteStore({ dataDir: join(dir.path, 'data') });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function forget(...args: string[]) {
  const io = fakeIo(env, dir.path);
  const code = await runCli(['forget', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('engage-bridge forget', () => {
  it('counts with --dry-run and changes nothing', async () => {
    const { code, out } = await forget('whatsapp/32475550001', '--dry-run');
    expect(code).toBe(0);
    expect(out).toMatch(
      /^Would remove about whatsapp\/c-[0-9a-f]{10} \(dry run, nothing changed\): conversation \(with its dialog state\): 1,/,
    );
    expect(out).toContain('survey answers: 1');
    expect(await withStore((s) => s.getConversation(ANN))).toMatchObject({ contactName: 'Ann' });
  });

  it('removes the customer from the store it opens itself, and the audit names them only by pseudonym', async () => {
    const { code, out } = await forget('whatsapp/32475550001');
    expect(code).toBe(0);
    expect(out).toMatch(/^Forgot whatsapp\/c-[0-9a-f]{10}: removed conversation \(with its dialog state\): 1, .*transcript lines: 1/);
    await withStore(async (store) => {
      expect(await store.getConversation(ANN)).toBeUndefined();
      const audit = await store.listAudit();
      expect(
        audit.filter((e) => e.action === 'forget' && e.actor === 'cli:terminal' && /^whatsapp\/c-[0-9a-f]{10}$/.test(e.subject)),
      ).toHaveLength(1);
      expect(JSON.stringify(audit)).not.toContain('32475550001');
    });
  });

  it('says it keeps nothing about a contact it does not know', async () => {
    const { code, out } = await forget('whatsapp/32475550001');
    expect(code).toBe(0);
    expect(out).toMatch(/^The bridge keeps nothing about whatsapp\/c-[0-9a-f]{10}: nothing was changed\.\n$/);
  });

  it('wants exactly one contact (exit 2 with its usage)', async () => {
    const none = await forget();
    expect(none.code).toBe(2);
    expect(none.err).toContain('engage-bridge forget <service>/<service_id> [--dry-run]');
    expect((await forget('whatsapp/1', 'whatsapp/2')).code).toBe(2);
  });
});
