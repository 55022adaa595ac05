import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a library user does: install the published tarballs with plain npm into an empty project,
// type-check two programs against the shipped declarations in a strict project that checks every
// declaration file (no skipLibCheck), and run them: the fifteen-line agent against an
// OpenAI-compatible server (a loopback fake here), and a second one with approval's risk check,
// the explorer subagent and the tracer.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
// The packages a user names, and every workspace package they depend on (as npm would fetch them).
const PACKAGES = withWorkspaceDependencies([
  'core',
  'tools',
  'providers-openai',
  'approval',
  'subagent',
  'tracing',
]);
/** Shell parsing (web-tree-sitter and approval's grammar) may install at most this many bytes. */
const SHELL_PARSING_BUDGET = 5_000_000;

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

const SECOND_PROGRAM = `import { assessCall } from '@tiny-claw/approval';
import { createAgent } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { exploreTool } from '@tiny-claw/subagent';
import { workspaceTools } from '@tiny-claw/tools';
import { createTracer, readTrace, renderTraceTree } from '@tiny-claw/tracing';

const workdir = process.cwd();
const risky = await assessCall({ name: 'bash', arguments: { command: 'cd / && rm -rf "$HOME"' } }, { workdir });
const harmless = await assessCall({ name: 'bash', arguments: { command: 'ls -la | wc -l' } }, { workdir });
const [read] = workspaceTools({ workdir, enabled: ['read'] });
const tracer = createTracer({ stateDir: process.env.TINY_CLAW_STATE_DIR!, mode: 'metadata' });
const agent = createAgent({
  workdir,
  tracer,
  tools: [exploreTool({ tools: read ? [read] : [] })],
  provider: new ScriptedProvider({
    turns: [
      { tool_calls: [{ name: 'explore', arguments: { task: 'What does package.json call this package?' } }] },
      { tool_calls: [{ name: 'read', arguments: { path: 'package.json' } }] },
      { text: 'package.json names it "embed-check".' },
      { text: 'It is called embed-check.' },
    ],
  }),
});
const result = await agent.run('What is this package called?');
const tree = renderTraceTree(await readTrace(result.tracePath as string));
console.log(JSON.stringify({ risky: risky.verdict, harmless: harmless.verdict, text: result.text, tree }));
`;

let project: string;
let home: string;
let stateDir: string;
let packed: string[];
let server: FakeLlmServer;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'tiny-claw-packed-'));
  home = await mkdtemp(join(tmpdir(), 'tiny-claw-packed-home-'));
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-packed-state-'));
  const tarballs = join(project, '.tarballs');
  await mkdir(tarballs);
  for (const name of PACKAGES) {
    execFileSync('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: join(repo, 'packages', name),
      stdio: 'pipe',
    });
  }
  packed = (await readdir(tarballs)).map((file) => join(tarballs, file));
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
        // Every shipped declaration file is checked, as in a project that does not skip them.
        skipLibCheck: false,
        types: ['node'],
        outDir: 'out',
      },
      files: ['program.ts', 'second-program.ts'],
    }),
  );
  await writeFile(join(project, 'program.ts'), PROGRAM);
  await writeFile(join(project, 'second-program.ts'), SECOND_PROGRAM);
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
  await rm(stateDir, { recursive: true, force: true });
});

describe('the published packages, installed with plain npm', () => {
  it('type-check the fifteen-line program and the second one against their declarations, strictly and without skipLibCheck', () => {
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
  it('run the second program: the risk check parses shell from the installed grammar, the explorer answers, the trace is written', () => {
    const run = spawnSync(process.execPath, [join(project, 'out/second-program.js')], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, TINY_CLAW_STATE_DIR: stateDir },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const output = JSON.parse(run.stdout.trim()) as Record<string, string>;
    expect(output.risky).not.toBe('allow');
    expect(output.harmless).toBe('allow');
    expect(output.text).toBe('It is called embed-check.');
    expect(output.tree).toContain('explore');
  });

  it('every tarball carries the MIT license text', () => {
    for (const tarball of packed) {
      const license = execFileSync('tar', ['-xzOf', tarball, 'package/LICENSE'], {
        encoding: 'utf8',
      });
      expect(license, tarball).toMatch(
        /^MIT License\n\nCopyright \(c\) 2026 the tiny-claw authors\n/,
      );
    }
  });

  it('shell parsing installs at most 5 MB (web-tree-sitter and the grammar inside approval), and no tree-sitter-bash package', async () => {
    const modules = join(project, 'node_modules');
    const grammar = join(modules, '@tiny-claw/approval/grammar');
    expect((await readdir(grammar)).sort()).toEqual([
      'tree-sitter-bash.LICENSE',
      'tree-sitter-bash.wasm.gz',
    ]);
    const size =
      (await directorySize(join(modules, 'web-tree-sitter'))) + (await directorySize(grammar));
    expect(size).toBeLessThanOrEqual(SHELL_PARSING_BUDGET);
    expect(await directoriesNamed(modules, 'tree-sitter-bash')).toEqual([]);
  });

  it("approval's declarations reachable from its exports import nothing from web-tree-sitter", async () => {
    const approval = join(project, 'node_modules/@tiny-claw/approval');
    const imports = await declarationImports(join(approval, 'dist/index.d.ts'));
    expect(imports.size).toBeGreaterThan(1);
    const outside = [...imports.values()].flat();
    expect(outside.filter((specifier) => specifier.startsWith('web-tree-sitter'))).toEqual([]);
  });

  it("tracing's main entry installs no OpenTelemetry package; its ./otel entry says which to install", async () => {
    expect(await directoriesNamed(join(project, 'node_modules'), '@opentelemetry')).toEqual([]);
    const otel = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "await import('@tiny-claw/tracing/otel');"],
      { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home } },
    );
    expect(otel.status).not.toBe(0);
    expect(otel.stderr).toContain(
      '@tiny-claw/tracing/otel needs OpenTelemetry packages that are not installed: @opentelemetry/api, @opentelemetry/exporter-trace-otlp-http, @opentelemetry/resources, @opentelemetry/sdk-trace-base.',
    );
    expect(otel.stderr).toContain('npm install @opentelemetry/api@~1.9.0');
    expect(otel.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
  });
});

/** Bytes of every file under `dir`. */
async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Every directory named `name` under `root`, at any depth. */
async function directoriesNamed(root: string, name: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isDirectory() && entry.name === name)
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The declaration files reachable from `entry` through relative imports, each with the package
 * specifiers it imports.
 */
async function declarationImports(entry: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const packages: string[] = [];
    found.set(file, packages);
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.')) {
        visit(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
      } else packages.push(specifier);
    }
  };
  visit(entry);
  return found;
}
