import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    projects: [
      {
        resolve: { alias: { "@": path.resolve(__dirname) } },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
          globalSetup: ["db/testing/global-setup.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: { "@": path.resolve(__dirname) } },
        test: {
          name: "api",
          include: ["e2e/api/**/*.test.ts"],
          globalSetup: ["e2e/api/global-setup.ts"],
          setupFiles: ["e2e/fixtures/fresh-connections.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // each file starts its own server on its own database; scripts/test.mjs runs two files at a time
        },
      },
    ],
  },
});
