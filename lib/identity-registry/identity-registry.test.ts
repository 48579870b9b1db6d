import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { createOrganization } from "@/lib/organizations/create-organization";
import { chainIdentityRegistries, tableIdentityRegistry, type IdentityRegistry } from "./identity-registry";
import { importIdentityRegistry } from "./import-identity-registry";

let db: Db;
let close: () => Promise<void>;
let dir: string;
const org: Record<"a" | "b", string> = { a: "", b: "" };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-identity-registry-"));
  const database = await openDatabase({ dataDir: dir });
  db = database.db;
  close = database.close;
  for (const key of ["a", "b"] as const) {
    const { organization } = await createOrganization({ domain: `names-${key}.test`, ownerEmail: `o@names-${key}.test`, ownerPassword: "Owner-Password-1" }, db);
    org[key] = organization.id;
  }
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const find = (organizationId: string, nat: string, docId: string) => tableIdentityRegistry(db).findNames({ organizationId, nat, docId });

describe("identity registry (imported table)", () => {
  it("imports a CSV (BOM, quotes, any header case, extra spaces) and finds names per organization", async () => {
    const csv = '\uFEFFNat,Doc_ID,Given_Name,Family_Name\nPER,45493496,"María  José",Núñez Güemes\nCHL,12345678-5, Ana ,"O\'Higgins Riquelme"\n';
    expect(await importIdentityRegistry({ organizationId: org.a, csv, actor: "admin@a" }, db)).toEqual({ imported: 2 });
    expect(await find(org.a, "PER", "45493496")).toEqual({ given_name: "María José", family_name: "Núñez Güemes" });
    expect(await find(org.a, "CHL", "12345678-5")).toEqual({ given_name: "Ana", family_name: "O'Higgins Riquelme" });
    expect(await find(org.b, "PER", "45493496")).toBeNull();
    expect(await find(org.a, "PER", "11111111")).toBeNull();
  });

  it("replaces the names of people already imported", async () => {
    await importIdentityRegistry({ organizationId: org.a, csv: "nat,doc_id,given_name,family_name\nPER,45493496,María José,Núñez Prado\n", actor: "admin@a" }, db);
    expect(await find(org.a, "PER", "45493496")).toEqual({ given_name: "María José", family_name: "Núñez Prado" });
    const audit = await listAuditEvents({ organizationId: org.a }, db);
    expect(JSON.stringify(audit)).toContain("identity_registry.imported");
  });

  it.each([
    ["a missing column", "nat,doc_id,given_name\nPER,45493496,Ana\n", /faltan columnas: family_name/],
    ["a bad DNI", "nat,doc_id,given_name,family_name\nPER,4549349,Ana,Soto\n", /línea 2/],
    ["digits in a name", "nat,doc_id,given_name,family_name\nPER,45493496,Ana,Soto\nPER,45493497,R2D2,Soto\n", /línea 3: given_name/],
    ["an empty family name", "nat,doc_id,given_name,family_name\nPER,45493496,Ana,\n", /línea 2: family_name es obligatorio/],
    ["a repeated person", "nat,doc_id,given_name,family_name\nPER,45493496,Ana,Soto\nPER,45493496,Eva,Soto\n", /línea 3: PER:45493496 repetido/],
    ["no rows", "nat,doc_id,given_name,family_name\n", /no tiene filas/],
    ["an unclosed quote", 'nat,doc_id,given_name,family_name\nPER,45493496,"Ana,Soto\n', /CSV ilegible/],
  ])("refuses a file with %s, naming the line, and writes nothing", async (_name, csv, message) => {
    await expect(importIdentityRegistry({ organizationId: org.b, csv, actor: "admin@b" }, db)).rejects.toMatchObject({ code: "VALIDATION", field: "csv", message: expect.stringMatching(message) });
    expect(await find(org.b, "PER", "45493496")).toBeNull();
  });

  it("a country adapter answers first; the imported table answers for the people it does not know", async () => {
    const calls: string[] = [];
    const country: IdentityRegistry = {
      async findNames(person) {
        calls.push(person.docId);
        return person.docId === "70000000" ? { given_name: "Rosa", family_name: "Quispe" } : null;
      },
    };
    const registry = chainIdentityRegistries(country, tableIdentityRegistry(db));
    expect(await registry.findNames({ organizationId: org.a, nat: "PER", docId: "70000000" })).toEqual({ given_name: "Rosa", family_name: "Quispe" });
    expect(await registry.findNames({ organizationId: org.a, nat: "PER", docId: "45493496" })).toEqual({ given_name: "María José", family_name: "Núñez Prado" });
    expect(calls).toEqual(["70000000", "45493496"]);
  });
});
