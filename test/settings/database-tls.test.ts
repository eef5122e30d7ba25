import { describe, expect, it } from 'vitest';
import { databaseTlsWarning } from '../../src/settings/database-tls.js';

const PASSWORD = 's3cr3t-Pa55word';

describe('the PostgreSQL TLS warning at start', () => {
  it.each([
    ['a remote database with verify-full', `postgres://bridge:${PASSWORD}@db.example.com:5432/bridge?sslmode=verify-full`],
    ['a remote database with verify-ca', `postgres://bridge:${PASSWORD}@10.0.0.5/bridge?sslmode=verify-ca`],
    ['localhost without TLS', `postgres://bridge:${PASSWORD}@localhost:5432/bridge`],
    ['127.0.0.1 without TLS', `postgresql://bridge:${PASSWORD}@127.0.0.1/bridge?sslmode=disable`],
    ['::1 without TLS', `postgres://bridge:${PASSWORD}@[::1]:5432/bridge`],
    ['a Unix socket (no host)', 'postgres:///bridge'],
    ['a Unix socket (host=/dir)', `postgres:///bridge?host=/var/run/postgresql&user=bridge&password=${PASSWORD}`],
  ])('says nothing for %s', (_what, url) => {
    expect(databaseTlsWarning(url)).toBeUndefined();
  });

  it.each([
    ['sslmode=no-verify, even on localhost', `postgres://bridge:${PASSWORD}@localhost/bridge?sslmode=no-verify`, /no-verify/],
    ['a remote database without sslmode', `postgres://bridge:${PASSWORD}@db.example.com/bridge`, /db\.example\.com.*no sslmode/],
    ['a remote database with sslmode=require', `postgres://bridge:${PASSWORD}@db.example.com/bridge?sslmode=require`, /sslmode=require/],
    [
      'a remote database named by host=',
      `postgres:///bridge?host=db.internal&sslmode=prefer&user=bridge&password=${PASSWORD}`,
      /db\.internal/,
    ],
  ])('warns for %s, with neither the password nor the user in the line', (_what, url, says) => {
    const line = databaseTlsWarning(url);
    expect(line).toMatch(says);
    expect(line).toMatch(/verify-full/);
    expect(line).not.toContain(PASSWORD);
    expect(line).not.toContain(encodeURIComponent(PASSWORD));
    expect(line).not.toContain('bridge:');
  });
});
