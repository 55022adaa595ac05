import { defineConfig } from 'vitest/config';

// Unlike the packages' tests, the example resolves tiny-claw through the built `dist` an embedder
// installs, not through the sources: what it checks is the published surface.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    // Packing and installing the tarballs with npm happens in a hook.
    hookTimeout: 300_000,
  },
});
