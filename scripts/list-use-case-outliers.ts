// `npx tsx scripts/list-use-case-outliers.ts`: the use cases under lib/ that break the shape
// docs/architecture.md states (`verbNoun(input, deps)`); its test keeps the list empty.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

export type UseCaseOutlier = { file: string; name: string; parameters: string[]; reason: string };

/** Parameter names that are the database, a transaction, or the deps object that holds them. */
const DEPS_NAMES = new Set(["db", "tx", "deps", "services"]);
const DEPS_TYPES = new Set(["Db", "Services"]);

/**
 * A use case is an exported function that works with the database: one of its parameters is the
 * database or transaction (`db`, `tx`, typed `Db`) or a deps object holding it (`deps`, `services`,
 * `{ db, ... }`). Its shape must be `(input, deps)` or `(deps)`: at most two parameters, deps last.
 * Pure functions (no database) are not use cases and keep whatever parameters read best.
 */
export function findOutliersInSource(file: string, source: string): UseCaseOutlier[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const outliers: UseCaseOutlier[] = [];
  for (const { name, parameters } of exportedFunctions(sourceFile)) {
    const depsAt = parameters.findIndex((parameter) => isDeps(parameter, sourceFile));
    if (depsAt < 0) continue;
    const names = parameters.map((parameter) => parameter.name.getText(sourceFile).replace(/\s+/g, " "));
    const reason =
      parameters.length > 2 ? `${parameters.length} parameters; input and options belong in one object, services in deps`
      : depsAt !== parameters.length - 1 ? "deps must be the last parameter"
      : null;
    if (reason) outliers.push({ file, name, parameters: names, reason });
  }
  return outliers;
}

function exportedFunctions(sourceFile: ts.SourceFile) {
  const found: { name: string; parameters: readonly ts.ParameterDeclaration[] }[] = [];
  const isExported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of sourceFile.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && isExported(statement)) {
      found.push({ name: statement.name.text, parameters: statement.parameters });
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value))) {
          found.push({ name: declaration.name.getText(sourceFile), parameters: value.parameters });
        }
      }
    }
  }
  return found;
}

function isDeps(parameter: ts.ParameterDeclaration, sourceFile: ts.SourceFile): boolean {
  const type = parameter.type;
  if (type && ts.isTypeReferenceNode(type) && DEPS_TYPES.has(type.typeName.getText(sourceFile))) return true;
  if (type && ts.isTypeLiteralNode(type) && type.members.some((member) => member.name?.getText(sourceFile) === "db")) return true;
  if (ts.isIdentifier(parameter.name)) return DEPS_NAMES.has(parameter.name.text);
  if (ts.isObjectBindingPattern(parameter.name)) {
    return parameter.name.elements.some((element) => (element.propertyName ?? element.name).getText(sourceFile) === "db");
  }
  return false;
}

/** Every `lib/<domain>/*.ts` file (tests and declarations aside), relative to `root`. */
export function domainSourceFiles(root: string): string[] {
  const lib = path.join(root, "lib");
  return fs.readdirSync(lib, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((domain) => fs.readdirSync(path.join(lib, domain.name)).map((name) => path.join("lib", domain.name, name)))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts"))
    .sort();
}

export function listUseCaseOutliers(root: string): UseCaseOutlier[] {
  return domainSourceFiles(root).flatMap((file) => findOutliersInSource(file, fs.readFileSync(path.join(root, file), "utf8")));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outliers = listUseCaseOutliers(process.cwd());
  for (const outlier of outliers) console.log(`${outlier.file} ${outlier.name}(${outlier.parameters.join(", ")}): ${outlier.reason}`);
  console.log(`${outliers.length} use case(s) break verbNoun(input, deps)`);
  process.exitCode = outliers.length ? 1 : 0;
}
