import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'repo',
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['scripts/**/*.test.ts'],
    environment: 'node',
  },
});
