import { describe, expect, it } from 'vitest';
import { commandKind } from './command-kind.js';

describe('commandKind tells services from tests and builds by whole words', () => {
  it.each([
    ['npm run dev', 'service'],
    ['cd web && pnpm start', 'service'],
    ['uvicorn app:main --reload', 'service'],
    ['python3 -m http.server 8000', 'service'],
    ['tail -f server.log', 'service'],
    ['npx vite', 'service'],
    ['npx vitest run src', 'test_or_build'],
    ['pytest -x tests/', 'test_or_build'],
    ['pnpm   test', 'test_or_build'],
    ['NODE_ENV=production npm run build', 'test_or_build'],
    ['tsc -p .', 'test_or_build'],
    ['find / -name core', 'other'],
    ['latest-release --print', 'other'],
    ['Vite', 'service'],
  ])('%s → %s', (command, kind) => {
    expect(commandKind(command)).toBe(kind);
  });
});
