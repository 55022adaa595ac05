import { defineConfig } from 'vitest/config';

// Like an embedder's program, the examples resolve tiny-claw through the built `dist`, not the
// sources: what they show is the published surface.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
