import type { Command } from 'commander';
import { z } from 'zod';
import { type ReceivedWebhook, startWebhookListener } from '../webhooks/listener.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../webhooks/signature.js';
import { helpExamples, parseInput } from './commandSupport.js';
import type { CliIo } from './io.js';

const wholeNumber = (message: string) =>
  z
    .string()
    .regex(/^\d+$/, message)
    .transform((value) => Number(value));

const listenInput = z.object({
  port: wholeNumber('must be a port number, 0 to 65535').pipe(
    z.number().max(65535, 'must be a port number, 0 to 65535'),
  ),
  host: z.string().trim().min(1, 'must not be empty'),
  secret: z.array(z.string().trim().min(1, 'must not be empty')).min(1),
  tolerance: wholeNumber('must be a whole number of seconds'),
  status: z.enum(['200', '204'], 'must be 200 or 204').transform((value) => Number(value) as 200 | 204),
  json: z.boolean().optional(),
});

/**
 * `webhooks listen`: a local receiver for trying deliveries on a laptop. It needs no database, so
 * it runs outside the CLI context, until Ctrl-C or SIGTERM (io.signal).
 */
export function registerWebhookListenCommand(webhooks: Command, io: CliIo): void {
  webhooks
    .command('listen')
    .description(
      'Run a local receiver: verify each delivery with the signing secret, print it, answer 200 or 400 (no database)',
    )
    .addHelpText(
      'after',
      helpExamples(
        'webhooks listen --port 4000 --secret whsec_Qm9vdHN0cmFwIHNlY3JldCBmb3IgZG9jcw',
        'webhooks listen --port 4000 --secret whsec_TmV3IHNpZ25pbmcgc2VjcmV0IGV4YW1wbGU --secret whsec_Qm9vdHN0cmFwIHNlY3JldCBmb3IgZG9jcw --json',
      ),
    )
    .requiredOption('--port <port>', 'port to listen on (0 picks a free one)')
    .requiredOption(
      '--secret <secret>',
      "the endpoint's signing secret; repeat for several (during a rotation)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option(
      '--tolerance <seconds>',
      'refuse deliveries signed longer ago, or further ahead, than this',
      String(DEFAULT_TOLERANCE_SECONDS),
    )
    .option('--status <code>', 'the answer to a verified delivery: 200 or 204', '200')
    .option('--json', 'print each verified event as one line of JSON (refusals go to stderr)')
    .action(async (options: Record<string, unknown>) => {
      const input = parseInput(listenInput, options);
      await listen(io, input);
    });
}

async function listen(io: CliIo, input: z.output<typeof listenInput>): Promise<void> {
  const listener = await startWebhookListener({
    port: input.port,
    host: input.host,
    secrets: input.secret,
    toleranceSeconds: input.tolerance,
    status: input.status,
    ...(io.clock ? { now: io.clock } : {}),
    onDelivery: (delivery) => {
      const { outcome } = delivery;
      // --json keeps stdout to one event per line, for jq; the text log is one stream.
      if (!input.json) io.stdout.write(`${deliveryLine(delivery)}\n`);
      else if (outcome.verified) io.stdout.write(`${JSON.stringify(outcome.event)}\n`);
      else io.stderr.write(`${deliveryLine(delivery)}\n`);
    },
  });
  const secrets = input.secret.length === 1 ? '1 secret' : `${input.secret.length} secrets`;
  io.stderr.write(
    `Listening for webhooks on ${listener.url} (any path), ${secrets}, tolerance ${input.tolerance} s. Ctrl-C stops.\n`,
  );
  await interrupted(io.signal);
  await listener.close();
  io.stderr.write('Stopped.\n');
}

/** One line per delivery: when, which event, what it is about, and whether it verified. */
export function deliveryLine({ receivedAt, eventId, outcome }: ReceivedWebhook): string {
  const about = outcome.verified
    ? [outcome.event.type, `${outcome.event.data.object.type} ${outcome.event.data.object.id ?? '-'}`]
    : ['-', '-'];
  const verdict = outcome.verified ? 'signature ok' : `${outcome.code}: ${outcome.message}`;
  return [receivedAt.toISOString(), eventId ?? '-', ...about, verdict].join('  ');
}

/** Resolves when the signal aborts; never, without one. */
function interrupted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
