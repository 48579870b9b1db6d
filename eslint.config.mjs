// ESLint for the whole repository: Next.js core-web-vitals and TypeScript rules (eslint-config-next).
// `npm run lint` fails on any warning; a suppression needs a comment saying why.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";
import { importBoundaryZones } from "./scripts/import-layers.mjs";

export default defineConfig([
  ...nextVitals,
  ...nextTypeScript,
  globalIgnores([".next/**", "node_modules/**", "data/**", "e2e/artifacts/**", "next-env.d.ts", "db/migrations/**"]),
  {
    // Playwright fixtures call their own `use(...)`, which is not React's hook
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // browser specs take `test` from e2e/fixtures/browser-test.ts, which closes the contexts a test opened
    files: ["e2e/ui/**"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "@playwright/test", importNames: ["test"], message: "Import test from e2e/fixtures/browser-test (it closes the contexts a test opens)." }] }],
    },
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // a suppression must say why: `// eslint-disable-next-line rule -- reason`
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-expect-error": "allow-with-description" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // the layers of docs/architecture.md: a lower layer never imports a higher one (import cycles,
    // type-only ones included, are found by scripts/import-graph.test.ts, which eslint's no-cycle misses)
    // Tests and their helpers (testing/) may reach up: a PDF engine test checks its output with the verifier.
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    ignores: ["**/*.test.ts", "**/*.spec.ts", "**/testing/**", "e2e/**", "bench/**", "scripts/**"],
    rules: { "import/no-restricted-paths": ["error", { zones: importBoundaryZones() }] },
  },
]);
