import { defineConfig } from 'vitest/config';

// Unit tests of pure modules only: no DOM needed.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts?(x)'],
    environment: 'node',
  },
});
