import { defineConfig } from 'vitest/config';

// Unlike the packages' tests, the example resolves tiny-claw through the built `dist` an embedder
// installs, not through the sources: what it checks is the published surface.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
  },
});
