import path from "node:path";
import { describe, expect, it } from "vitest";
import { findOutliersInSource, listUseCaseOutliers, domainSourceFiles } from "./list-use-case-outliers";

const root = path.resolve(__dirname, "..");
const outliersIn = (source: string) => findOutliersInSource("lib/x/do-thing.ts", source).map((o) => o.name);

describe("use-case shape verbNoun(input, deps)", () => {
  it("holds for every use case under lib/", () => {
    expect(domainSourceFiles(root).length).toBeGreaterThan(100);
    expect(listUseCaseOutliers(root)).toEqual([]);
  });

  it.each([
    ["(input, db, settings)", "export async function a(input: { id: string }, db: Db, settings: S) {}"],
    ["(input, db, deps)", "export async function a(input: { id: string }, db: Db, deps: { blobs: B }) {}"],
    ["(a, b, settings, db)", "export async function a(caller: C, fields: F, settings: S, db: Db) {}"],
    ["(db, input)", "export async function a(db: Db, input: { id: string }) {}"],
    ["(deps, input) with a destructured deps", "export async function a({ db, settings }: { db: Db; settings: S }, id: string) {}"],
    ["(input, services, extra)", "export function a(input: I, services: Services, now: number) {}"],
    ["an exported arrow function", "export const a = async (token: string, db: Db, options: { lock?: boolean }) => {};"],
  ])("flags %s", (_, source) => {
    expect(outliersIn(source)).toEqual(["a"]);
  });

  it.each([
    ["(input, db)", "export async function a(input: { id: string }, db: Db) {}"],
    ["(value, tx)", "export async function a(token: string, tx: Db) {}"],
    ["(input, { db, ... })", "export async function a(input: I, { db, ...deps }: { db: Db; blobs: B }) {}"],
    ["(input, deps) with db in the deps type", "export async function a(input: I, d: { db: Db; secretKey: K }) {}"],
    ["(input, services)", "export async function a(input: I, services: Services) {}"],
    ["(db) alone", "export async function a(db: Db) {}"],
    ["a pure function with three parameters", "export function a(bytes: Uint8Array, from: number, to: number) {}"],
    ["a private helper", "async function a(x: string, db: Db, y: number) {}"],
  ])("accepts %s", (_, source) => {
    expect(outliersIn(source)).toEqual([]);
  });
});
