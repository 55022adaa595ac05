// Run a CommonJS bundle through V8's code cache, the way Node 22's module.enableCompileCache()
// does for modules (Node 20 has no such switch, and no code cache for ES modules at all).
//
// The first run of a build compiles from source and, when the process exits, writes the cache:
// by then it also holds every function the run compiled lazily. Later runs of the same build on
// the same Node skip almost all of that compiling. The cache lives in the user's cache folder
// ($XDG_CACHE_HOME/tiny-claw, else ~/.cache/tiny-claw), one file per bundle, written atomically;
// anything that goes wrong with it only means compiling from source. NODE_DISABLE_COMPILE_CACHE=1
// turns it off, as it does Node's own.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Evaluate the CommonJS bundle `file` and return its exports. The file is the build's function
 * expression `(function (exports, require, module, __filename, __dirname) {…})`, after a first
 * line `// tiny-claw build <id>` that names the build.
 *
 * @example
 * const { main } = requireWithCompileCache(fileURLToPath(new URL('../dist/cli.cjs', import.meta.url)));
 */
export function requireWithCompileCache(file) {
  // The bundle is pure ASCII (the build checks): latin1 reads it exactly, without UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const build = /^\/\/ tiny-claw build ([0-9a-f]+)\n/.exec(source)?.[1];
  const cacheFile = build === undefined ? undefined : cachePath(file, build);
  let cachedData;
  if (cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache yet: compile from source and write one at exit.
    }
  }
  const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => writeCache(cacheFile, script));
  }
  return module.exports;
}

/** Where the cache of this build on this Node lives, or undefined when it is turned off. */
function cachePath(file, build) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const xdg = process.env.XDG_CACHE_HOME;
  const root = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  const name = basename(file).replace(/\.[^.]+$/, '');
  // V8 refuses a cache made under other flags: processes started with different Node options
  // keep caches of their own rather than replacing each other's on every start.
  const options = createHash('sha256')
    .update(JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']))
    .digest('hex')
    .slice(0, 8);
  return join(
    root,
    'tiny-claw',
    `${name}-${build}-${process.version}-${process.arch}-${options}.v8cache`,
  );
}

/** Write the cache next to a unique temporary name, then rename: readers never see half a file. */
function writeCache(cacheFile, script) {
  try {
    const dir = dirname(cacheFile);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, cacheFile);
    // Caches of other builds are dead weight once unused for a week (not sooner: two installs
    // used in turn would otherwise keep deleting each other's).
    const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (entry.endsWith('.v8cache') && path !== cacheFile && statSync(path).mtimeMs < weekAgo) {
        rmSync(path, { force: true });
      }
    }
  } catch {
    // A cache is an optimisation: a folder that cannot be written only means compiling again.
  }
}
