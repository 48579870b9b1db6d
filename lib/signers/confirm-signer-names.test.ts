import { describe, expect, it } from "vitest";
import type { IdentityRegistry } from "@/lib/identity-registry/identity-registry";
import { proposeSignerNames } from "./confirm-signer-names";
import type { SignerRow } from "./resolve-signing-link";

const registry: IdentityRegistry = {
  async findNames({ docId }) {
    return docId === "45493496" ? { given_name: "Rosa", family_name: "Quispe" } : null;
  },
};
const row = (extra: Partial<SignerRow>) => ({ organizationId: "o", nat: "PER", docId: "45493496", pinfo: null, proposedPinfo: null, namesConfirmedAt: null, ...extra }) as SignerRow;

describe("proposeSignerNames", () => {
  it.each([
    ["the signer's confirmed names first", row({ pinfo: { given_name: "Ana", family_name: "Soto" }, namesConfirmedAt: new Date(), proposedPinfo: { given_name: "X", family_name: "Y" } }), { given_name: "Ana", family_name: "Soto", source: "confirmed" }],
    ["then the names the process was created with", row({ proposedPinfo: { given_name: "Eva", family_name: "Ruiz" } }), { given_name: "Eva", family_name: "Ruiz", source: "process" }],
    ["then the identity registry", row({}), { given_name: "Rosa", family_name: "Quispe", source: "registry" }],
    ["else blank", row({ docId: "11111111" }), { given_name: "", family_name: "", source: "none" }],
  ])("%s", async (_name, signer, expected) => {
    expect(await proposeSignerNames(signer, registry)).toEqual(expected);
  });
});
