import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { metricsAnswered, startHttpServer, type RunningHttpServer } from '../../src/http/http-server.js';
import { createBridgeMetrics, METRICS_CONTENT_TYPE } from '../../src/metrics/bridge-metrics.js';

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('/metrics host (BRIDGE_METRICS_HOST)', () => {
  it('answers only loopback callers by default, every caller with any', () => {
    expect(parseConfig({ env: {} }).bridge.metricsHost).toBe('loopback');
    expect(parseConfig({ env: { BRIDGE_METRICS_HOST: 'any' } }).bridge.metricsHost).toBe('any');
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(metricsAnswered(address, true)).toBe(true);
    for (const address of ['10.0.0.7', '192.168.1.20', '::ffff:192.0.2.1', '2001:db8::1', '172.17.0.1', undefined]) {
      expect(metricsAnswered(address, true)).toBe(false);
      expect(metricsAnswered(address, false)).toBe(true);
    }
  });

  it('serves /metrics to a loopback caller over a real socket when limited to loopback', async () => {
    const metrics = createBridgeMetrics({ defaultMetrics: false });
    server = await startHttpServer(
      {
        readiness: () => ({ ready: true }),
        metricsText: () => metrics.text(),
        metricsContentType: METRICS_CONTENT_TYPE,
        metricsLoopbackOnly: true,
      },
      { host: '127.0.0.1', port: 0 },
    );
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('engage_bridge_inbound_messages_total');
  });
});
