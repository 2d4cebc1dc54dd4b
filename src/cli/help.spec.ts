import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../test/support/cli.js';
import { deltaFormats, sourceFormats } from '../screening/parsers/registry.js';

/**
 * The CLI's own documentation: help, version and usage errors. None of them touches a database:
 * the environment names one that does not exist, so a command that tried would fail.
 */
const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nowhere' };
const cli = (...argv: string[]) => runCliCaptured(argv, env);

/** The subcommand names a help page lists under "Commands:" (not commander's own `help`). */
function subcommandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'help');
}

/** Every command path of the CLI, from the root's help down, each with its help page. */
async function everyCommandHelp(path: string[] = []): Promise<{ path: string[]; help: string }[]> {
  const { code, stdout, stderr } = await cli(...path, '--help');
  expect({ path, code, stderr }).toEqual({ path, code: 0, stderr: '' });
  const below = await Promise.all(subcommandsOf(stdout).map((name) => everyCommandHelp([...path, name])));
  return [{ path, help: stdout }, ...below.flat()];
}

describe('casescreen help, version and usage errors', () => {
  it("prints package.json's version for --version and -V", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await cli('-V')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('shows an example of every command, written as the command itself', async () => {
    const pages = await everyCommandHelp();
    // The root, the command groups and their commands: far more than a broken walk would find.
    expect(pages.length).toBeGreaterThan(40);
    expect(pages.map((page) => page.path.join(' '))).toEqual(
      expect.arrayContaining(['', 'sources load', 'keys create', 'cases collaborators add', 'screen']),
    );
    for (const { path, help } of pages) {
      const section = help.split(/^Examples?:$/m)[1];
      expect(section, `casescreen ${path.join(' ')} --help`).toBeDefined();
      const lines = section!.split('\n').filter((line) => line.trim() !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        // The root shows a first run across commands; every other page its own command.
        const command = path.length === 0 ? '' : ` ${path.join(' ')}`;
        expect(line).toMatch(new RegExp(`^ {2}\\$ npx casescreen${command}( |$)`));
      }
    }
  });

  it('marks required options as required in the help, and only those', async () => {
    /** An option's entry in the Options section, its wrapped description lines joined. */
    const optionEntry = (help: string, flag: string) =>
      help.match(new RegExp(`^ {2}${flag} .*(\\n {6,}.*)*`, 'm'))?.[0].replace(/\s+/g, ' ');
    const keysCreate = (await cli('keys', 'create', '--help')).stdout;
    for (const flag of ['--account', '--scopes', '--actor']) {
      expect(optionEntry(keysCreate, flag)).toMatch(/\(required\)$/);
    }
    for (const flag of ['--final-decision', '--groups', '--name', '--json']) {
      expect(optionEntry(keysCreate, flag)).not.toMatch(/required/);
    }
    expect(optionEntry((await cli('sources', 'load', '--help')).stdout, '--format')).toMatch(/\(required\)$/);
  });

  it('refuses a command without a required option with exit 2, naming the option, before any database', async () => {
    const keys = await cli(
      'keys',
      'create',
      '--account',
      'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
      '--actor',
      'agent',
    );
    expect(keys).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: required option '--scopes <list>' not specified\n",
    });

    const load = await cli('sources', 'load', 'consolidated.xml');
    expect(load.code).toBe(2);
    expect(load.stderr).toBe("error: required option '--format <format>' not specified\n");

    const move = await cli('cases', 'move', 'DKE623260', '--group', 'b388f863-e822-4ea8-bed9-14fb3bf95b9f');
    expect(move.code).toBe(2);
    expect(move.stderr).toContain("'--user <id>'");
  });

  it('names every list format of the parser registry in sources load --help, with its dataset', async () => {
    const help = (await cli('sources', 'load', '--help')).stdout;
    const listed = help.split(/^List formats.*$/m)[1]?.split(/^Examples?:$/m)[0] ?? '';
    const formats = Object.values({ ...sourceFormats, ...deltaFormats });
    expect(formats.length).toBeGreaterThan(5);
    for (const format of formats) {
      expect(listed).toMatch(new RegExp(`^ {2}${format.name} +dataset ${format.defaultDataset}\\b`, 'm'));
    }
    expect(listed.trim().split('\n')).toHaveLength(formats.length);
  });
});
