import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a library user does: install the published tarballs of core, tools and providers-openai
// with plain npm into an empty project, type-check the fifteen-line program against the shipped
// declarations, and run it against an OpenAI-compatible server (a loopback fake here).
const repo = fileURLToPath(new URL('../../../', import.meta.url));
// The three a user names, and every workspace package they depend on (as npm would fetch them).
const PACKAGES = withWorkspaceDependencies(['core', 'tools', 'providers-openai']);

/** The package directories under packages/ of `names` and, transitively, of their @tiny-claw deps. */
function withWorkspaceDependencies(names: string[]): string[] {
  const found = new Set<string>();
  const visit = (dir: string) => {
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(
      readFileSync(join(repo, 'packages', dir, 'package.json'), 'utf8'),
    ) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@tiny-claw/')) visit(dependency.slice('@tiny-claw/'.length));
    }
  };
  for (const name of names) visit(name);
  return [...found];
}

const PROGRAM = `import { createAgent, defineTool } from '@tiny-claw/core';
import { workspaceTools } from '@tiny-claw/tools';
import { OpenAIProvider } from '@tiny-claw/providers-openai';
import { z } from 'zod';

const agent = createAgent({
  provider: new OpenAIProvider({ apiKey: process.env.OPENAI_API_KEY!, model: 'gpt-4.1-mini' }),
  tools: [
    ...workspaceTools({ workdir: process.cwd(), enabled: ['read', 'edit'] }),
    defineTool({ name: 'add', description: 'Add two numbers', parameters: z.object({ a: z.number(), b: z.number() }),
                 run: ({ a, b }) => String(a + b) }),
  ],
  policy: { deny: ['bash'] },
});
const result = await agent.run('what is 2 + 3?');
console.log(JSON.stringify({ result }));
for await (const event of agent.stream('rename foo to bar')) { console.log(JSON.stringify({ type: event.type, runId: event.runId })); }
`;

let project: string;
let home: string;
let server: FakeLlmServer;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'tiny-claw-packed-'));
  home = await mkdtemp(join(tmpdir(), 'tiny-claw-packed-home-'));
  const tarballs = join(project, '.tarballs');
  await mkdir(tarballs);
  for (const name of PACKAGES) {
    execFileSync('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: join(repo, 'packages', name),
      stdio: 'pipe',
    });
  }
  const packed = (await readdir(tarballs)).map((file) => join(tarballs, file));
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'embed-check', private: true, type: 'module' }),
  );
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        types: ['node'],
        outDir: 'out',
      },
      files: ['program.ts'],
    }),
  );
  await writeFile(join(project, 'program.ts'), PROGRAM);
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...packed,
      'zod@^4',
      'typescript@5.9.3',
      '@types/node@^20.19.0',
    ],
    { cwd: project, stdio: 'pipe' },
  );
  server = await startFakeLlmServer();
});

afterAll(async () => {
  await server?.close();
  await rm(project, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('the published packages, installed with plain npm', () => {
  it('type-check the fifteen-line program against their declarations', () => {
    const tsc = spawnSync(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '-p', project],
      { encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('run it: the custom tool is called, run ends final, stream yields start … tool … finish, no file is written', async () => {
    server.enqueue(
      { kind: 'turn', toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      { kind: 'turn', text: '2 + 3 = 5' },
      { kind: 'turn', toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { kind: 'turn', text: 'nothing to rename' },
    );
    const before = (await readdir(project)).sort();
    // Asynchronously: the fake server answers from this very process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          [join(project, 'out/program.js')],
          {
            cwd: project,
            encoding: 'utf8',
            timeout: 60_000,
            env: {
              PATH: process.env.PATH ?? '',
              HOME: home,
              OPENAI_API_KEY: 'sk-test-embed',
              OPENAI_BASE_URL: server.openaiBaseUrl,
            },
          },
          (error, stdout, stderr) =>
            resolve({
              status: error ? ((error.code as number | null) ?? null) : 0,
              stdout,
              stderr,
            }),
        );
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [first, ...events] = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(first.result).toMatchObject({ stopReason: 'final', text: '2 + 3 = 5', steps: 2 });

    const streamRun = events[0]?.runId;
    const own = events.filter((e) => e.runId === streamRun).map((e) => e.type);
    expect(own[0]).toBe('run.start');
    expect(own.at(-1)).toBe('run.finish');
    const toolStart = own.indexOf('tool.start');
    expect(toolStart).toBeGreaterThan(0);
    expect(own.indexOf('tool.end')).toBeGreaterThan(toolStart);

    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    const offered = ((bodies[0]?.tools ?? []) as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered.sort()).toEqual(['add', 'edit', 'read']);
    const answer = ((bodies[1]?.messages ?? []) as Array<{ role: string; content: string }>).find(
      (message) => message.role === 'tool',
    );
    expect(answer?.content).toBe('5');

    expect((await readdir(project)).sort()).toEqual(before);
    expect(await readdir(home)).toEqual([]);
  });
});
