import { defineConfig } from 'vitest/config';

// Tests import sibling packages' src through this export condition, never their dist.
const conditions = ['@tiny-claw/source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['{src,test}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // Set-up hooks build fixtures, start servers and browsers; on a loaded CI runner that takes a while.
    hookTimeout: 60_000,
  },
});
