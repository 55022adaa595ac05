import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The deployable server: `pnpm deploy` of this package gives a folder that runs with Node alone —
// its workspace dependencies copied in with their built files, no dev dependencies, no pnpm, no
// repository around it. The Dockerfile and the deployment guide use this exact command.

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The command the Dockerfile and the deployment guide give, offline here. */
const DEPLOY_ARGS = [
  '--filter',
  '@tiny-claw/server',
  '--config.inject-workspace-packages=true',
  'deploy',
  '--prod',
  '--offline',
];

let scratch: string;
let deployed: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tiny-claw-deploy-'));
  deployed = join(scratch, 'app');
  await run('pnpm', [...DEPLOY_ARGS, deployed], { cwd: repoRoot, timeout: 180_000 });
}, 200_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('pnpm deploy of the server', () => {
  it.each(['core', 'runtime', 'store-postgres', 'workspace', 'tools', 'approval'])(
    'holds the built files of the workspace package @tiny-claw/%s',
    (name) => {
      // Every package, direct dependency or not, has its own folder in the virtual store.
      const store = join(deployed, 'node_modules/.pnpm');
      const entry = readdirSync(store).find((dir) => dir.startsWith(`@tiny-claw+${name}@`));
      expect(entry).toBeDefined();
      const dir = join(store, entry as string, 'node_modules/@tiny-claw', name);
      expect(existsSync(join(dir, 'dist/index.js'))).toBe(true);
      expect(existsSync(join(dir, 'dist/index.d.ts'))).toBe(true);
    },
  );

  it('leaves out the dev dependencies', () => {
    expect(existsSync(join(deployed, 'node_modules/@tiny-claw/testkit'))).toBe(false);
  });

  it('starts with node alone and answers GET /health with 200', async () => {
    const home = join(scratch, 'home');
    await mkdir(join(home, 'work'), { recursive: true });
    const child = spawn(
      process.execPath,
      [join(deployed, 'bin/tiny-claw-server.js'), '--host', '127.0.0.1', '--port', '0'],
      {
        cwd: home,
        env: {
          PATH: dirname(process.execPath),
          HOME: home,
          TINY_CLAW_STATE_DIR: join(home, '.state'),
          TINY_CLAW_WORKDIR: join(home, 'work'),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', done));
    try {
      const url = await new Promise<string>((found, fail) => {
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
          if (listening) found(listening[1] as string);
        });
        void exited.then((code) => fail(new Error(`the server exited with ${code}: ${stderr}`)));
      });
      const response = await fetch(`${url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'ok',
        provider: { name: 'echo' },
        state: { backend: 'files' },
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(JSON.parse(await readFile(join(deployed, 'package.json'), 'utf8')).name).toBe(
      '@tiny-claw/server',
    );
  });
});
