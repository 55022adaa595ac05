import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findPostgresBin, POSTGRES_MISSING } from './find-binaries.js';

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL cluster started by {@link startPostgres}.
 *
 * @example
 * const pg: StartedPostgres = await startPostgres();
 * await pg.stop();
 */
export interface StartedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` — trust authentication, loopback only. */
  url: string;
  /** Stop the cluster at once (`pg_ctl stop -m immediate`) and remove its folder. */
  stop(): Promise<void>;
}

/**
 * Start a throwaway PostgreSQL cluster for a test file: `initdb -A trust` into a temp folder,
 * then `pg_ctl start` on a free loopback port with its socket in that folder and durability off
 * (nothing here must survive). PostgreSQL refuses to run as root, so as root the folder is handed
 * to the `postgres` user and both programs run as it (`runuser`).
 *
 * @throws Error saying to install `postgresql` when its server programs are missing — a test
 * that needs PostgreSQL fails then, it is never skipped. `where` replaces the PATH and Debian's
 * folder it looks in (a test of that failure).
 *
 * @example
 * let pg: StartedPostgres;
 * beforeAll(async () => { pg = await startPostgres(); });
 * afterAll(() => pg.stop());
 */
export async function startPostgres(
  where: { path?: string; debianRoot?: string } = {},
): Promise<StartedPostgres> {
  const bin = findPostgresBin(where.path, where.debianRoot);
  if (bin === undefined) throw new Error(POSTGRES_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'tiny-claw-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  const as = async (program: string, args: string[]): Promise<void> => {
    const file = join(bin, program);
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args));
  };
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await as('initdb', [
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '-D',
      data,
    ]);
    // A free port can be taken by another process before the server binds it: try a few.
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      try {
        await as('pg_ctl', [
          '-D',
          data,
          '-l',
          join(dir, 'server.log'),
          '-o',
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
          'start',
          '-w',
        ]);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await as('pg_ctl', ['-D', data, 'stop', '-m', 'immediate', '-w']);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const detail = (error as { stderr?: string }).stderr?.trim();
    throw new Error(
      `Could not start a throwaway PostgreSQL cluster${detail ? `: ${detail}` : ''}`,
      {
        cause: error,
      },
    );
  }
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
