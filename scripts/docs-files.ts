// The repository paths the docs name (`lib/x/y.ts`, `app/api/.../route.ts`), and those that do not
// exist: a renamed or removed file leaves no stale map behind (scripts/docs-files.test.ts).
import fs from "node:fs";
import path from "node:path";

/** A path under one of the repository's top folders, ending in a file extension; brackets and parentheses are Next.js segments. */
const PATH_PATTERN = /(?<![\w/.@-])((?:app|lib|db|e2e|scripts|components|bench|test|docs|public)\/[\w\-./[\]()@]*?\.(?:tsx?|mjs|js|md|json|sql|txt|sh|png))(?!\w)/g;

/** Files that runs write, not the repository: named in the docs as where to look after a run. */
const WRITTEN_BY_RUNS = [/^e2e\/artifacts\//];

/** Every path a document names, once each, in order of first mention. */
export function pathsNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(PATH_PATTERN)].map((match) => match[1]))];
}

/** `docs/*.md` file → the paths it names that the repository at `root` does not hold. */
export function missingDocPaths(root: string): Record<string, string[]> {
  const missing: Record<string, string[]> = {};
  const docs = fs.readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md")).sort();
  for (const doc of docs) {
    const named = pathsNamedIn(fs.readFileSync(path.join(root, "docs", doc), "utf8"));
    const absent = named.filter((file) => !WRITTEN_BY_RUNS.some((pattern) => pattern.test(file)) && !fs.existsSync(path.join(root, file)));
    if (absent.length) missing[`docs/${doc}`] = absent;
  }
  return missing;
}
