import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanRepository } from './stands-alone.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe('the repository stands alone', () => {
  it('no tracked file cites an outside document, a section number, a machine path or a checklist row id', () => {
    const found = scanRepository(repoRoot).map(
      (citation) => `${citation.file}:${citation.line}: ${citation.rule} (${citation.text})`,
    );
    expect(found, `say the rule in words instead:\n${found.join('\n')}`).toEqual([]);
  });
});
