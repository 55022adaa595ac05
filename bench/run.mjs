// Runs every bench/*.bench.mjs script in turn (each in its own process) and fails only if one crashes.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir } from './lib.mjs';

const only = process.argv[2];
let failed = 0;
for (const file of readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [join(benchDir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exitCode = failed > 0 ? 1 : 0;
