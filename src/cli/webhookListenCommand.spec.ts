import { describe, expect, it } from 'vitest';
import { captureOutput, runCliCaptured } from '../../test/support/cli.js';
import { eventually } from '../../test/support/eventually.js';
import { signatureHeader } from '../webhooks/signature.js';
import { runCli } from './main.js';

/** A database that does not exist: a command that tried to open one would fail. */
const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nowhere' };
const SECRET = 'whsec_Qm9vdHN0cmFwIHNlY3JldCBmb3IgZG9jcw';
const NOW = new Date('2026-06-09T12:00:00.000Z');
const TIMESTAMP = NOW.getTime() / 1000;

const event = {
  id: 'evt_5d41402abc4b2a76b9719d911017c592',
  type: 'check.completed',
  api_version: '2026-06-09',
  created_at: '2026-06-09T11:59:58.000Z',
  data: {
    account_id: 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
    group_id: null,
    object: { id: 'CHK7Q2M4X', type: 'check' },
  },
};
const body = JSON.stringify(event);
const headers = {
  'content-type': 'application/json',
  'service-event-id': event.id,
  'service-timestamp': String(TIMESTAMP),
  'service-signature': signatureHeader([SECRET], TIMESTAMP, body),
};

/** Starts `casescreen webhooks listen` in-process; `stop` interrupts it as Ctrl-C would. */
async function listen(...flags: string[]) {
  const stdout = captureOutput();
  const stderr = captureOutput();
  const interrupt = new AbortController();
  const exit = runCli(['webhooks', 'listen', '--port', '0', '--secret', SECRET, ...flags], {
    stdout,
    stderr,
    env,
    signal: interrupt.signal,
    clock: () => NOW,
  });
  const url = await eventually(() => {
    const found = stderr.text().match(/Listening for webhooks on (http:\/\/127\.0\.0\.1:\d+\/)/);
    if (!found) throw new Error(`not listening yet: ${stderr.text()}`);
    return found[1]!;
  });
  return {
    url,
    stdout,
    stderr,
    async stop() {
      interrupt.abort();
      return exit;
    },
  };
}

describe('casescreen webhooks listen', () => {
  it('verifies and prints each delivery, answers 200 or 400, and stops cleanly on interrupt', async () => {
    const listener = await listen();
    const accepted = await fetch(`${listener.url}hooks`, { method: 'POST', headers, body });
    expect(accepted.status).toBe(200);
    const refused = await fetch(`${listener.url}hooks`, { method: 'POST', headers, body: `${body} ` });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: { code: 'bad_signature', message: expect.any(String) } });

    expect(await listener.stop()).toBe(0);
    expect(listener.stdout.text().split('\n')).toEqual([
      `2026-06-09T12:00:00.000Z  ${event.id}  check.completed  check CHK7Q2M4X  signature ok`,
      expect.stringMatching(new RegExp(`^2026-06-09T12:00:00.000Z  ${event.id}  -  -  bad_signature: `)),
      '',
    ]);
    expect(listener.stderr.text()).toMatch(/secret, tolerance 300 s\. Ctrl-C stops\.\nStopped\.\n$/);
    // Closed: nothing answers on the port any more.
    await expect(fetch(listener.url, { method: 'POST', headers, body })).rejects.toThrow();
  });

  it('prints verified events as JSON lines with --json, refusals on stderr, and answers 204 with --status', async () => {
    const listener = await listen('--json', '--status', '204');
    expect((await fetch(listener.url, { method: 'POST', headers, body })).status).toBe(204);
    const stale = { ...headers, 'service-timestamp': String(TIMESTAMP - 301) };
    stale['service-signature'] = signatureHeader([SECRET], TIMESTAMP - 301, body);
    expect((await fetch(listener.url, { method: 'POST', headers: stale, body })).status).toBe(400);
    expect(await listener.stop()).toBe(0);
    expect(listener.stdout.text()).toBe(`${body}\n`);
    expect(listener.stderr.text()).toContain(`${event.id}  -  -  stale_timestamp: signed 301 s ago`);
  });

  it('shows its flags in --help and refuses bad ones with exit 2 before listening', async () => {
    const help = await runCliCaptured(['webhooks', 'listen', '--help'], env);
    expect(help.code).toBe(0);
    for (const flag of [
      '--port <port>',
      '--secret <secret>',
      '--host',
      '--tolerance',
      '--status',
      '--json',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    expect(await runCliCaptured(['webhooks', 'listen', '--port', '4000'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: required option '--secret <secret>' not specified\n",
    });
    const bad = await runCliCaptured(
      ['webhooks', 'listen', '--port', '65536', '--secret', SECRET, '--status', '201'],
      env,
    );
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: invalid input:\n  --port: must be a port number, 0 to 65535\n  --status: must be 200 or 204\n',
    });
  });
});
