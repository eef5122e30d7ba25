import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from './cli-helpers.js';

const io = () => fakeIo({}, process.cwd());

describe('runCli', () => {
  it('prints the usage with every command and exits 0 on --help', async () => {
    const cli = io();
    expect(await runCli(['--help'], cli)).toBe(0);
    expect(cli.out()).toMatch(/^Usage: engage-bridge <command>/);
    for (const command of ['start', 'simulator', 'chat', 'cmd', 'doctor', 'init', 'release']) expect(cli.out()).toContain(`  ${command} `);
    expect(cli.err()).toBe('');
  });

  it('prints the usage and exits 2 when no command is given', async () => {
    const cli = io();
    expect(await runCli([], cli)).toBe(2);
    expect(cli.out()).toContain('Usage: engage-bridge <command>');
  });

  it('names an unknown command on one line, then prints the usage, and exits 2', async () => {
    const cli = io();
    expect(await runCli(['frobnicate'], cli)).toBe(2);
    const [first, second, ...rest] = cli.err().split('\n');
    expect(first).toBe("engage-bridge: unknown command 'frobnicate'");
    expect(second).toBe('');
    expect(rest.join('\n')).toContain('Usage: engage-bridge <command>');
  });

  it('refuses a flag the command does not take with the command usage and exit 2', async () => {
    const cli = io();
    expect(await runCli(['doctor', '--verbose'], cli)).toBe(2);
    expect(cli.err().split('\n')[0]).toMatch(/^engage-bridge doctor: .*--verbose/);
    expect(cli.err()).toContain('Usage: engage-bridge doctor [--offline]');
  });

  it('refuses a string option given without its value', async () => {
    const cli = io();
    expect(await runCli(['simulator', '--port'], cli)).toBe(2);
    expect(cli.err()).toContain('Usage: engage-bridge simulator');
  });

  it('refuses cmd without its command text', async () => {
    const cli = io();
    expect(await runCli(['cmd'], cli)).toBe(2);
    expect(cli.err().split('\n')[0]).toBe('engage-bridge cmd: missing argument');
    expect(cli.err()).toContain('Usage: engage-bridge cmd "<manager command>"');
  });

  it('refuses an extra argument', async () => {
    const cli = io();
    expect(await runCli(['doctor', 'now'], cli)).toBe(2);
    expect(cli.err().split('\n')[0]).toBe("engage-bridge doctor: unexpected argument 'now'");
  });

  it('prints one command usage on <command> --help and exits 0', async () => {
    for (const command of ['start', 'simulator', 'chat', 'cmd', 'doctor', 'init', 'release']) {
      const cli = io();
      expect(await runCli([command, '--help'], cli)).toBe(0);
      expect(cli.out()).toMatch(new RegExp(`^Usage: engage-bridge ${command}`));
      expect(cli.err()).toBe('');
    }
  });

  it('refuses an out-of-range simulator port as a usage error', async () => {
    const cli = io();
    expect(await runCli(['simulator', '--port', '70000'], cli)).toBe(2);
    expect(cli.err()).toContain('--port must be 0..65535');
  });
});
