import * as asn1js from "asn1js";
import { describe, expect, test } from "vitest";
import { parseCertificateFields } from "./parse-certificate-fields";
import { createPkiHierarchy } from "./generate-pki-hierarchy";
import { issueSignerCertificate } from "./issue-certificate";
import { readStrictDer } from "./der-tree";
import { realWorldCertificates } from "./testing/real-world-certificates";
import { seededRandom } from "@/test/seeded-random";

/** The former reading, on asn1js's tree alone: the reference the strict path must agree with. */
function fieldsWithAsn1js(der: Uint8Array) {
  let parsed;
  try {
    parsed = asn1js.fromBER(new Uint8Array(der));
  } catch {
    // asn1js throws on some values (a time it cannot read): the former reader threw too
    return "refused";
  }
  if (parsed.offset !== der.length || parsed.result.error || !(parsed.result instanceof asn1js.Sequence)) return "refused";
  const tbs = parsed.result.valueBlock.value[0];
  if (!(tbs instanceof asn1js.Sequence)) return "refused";
  const fields = tbs.valueBlock.value;
  const offset = fields[0]?.idBlock.tagClass === 3 && fields[0].idBlock.tagNumber === 0 ? 1 : 0;
  if (!(fields[offset] instanceof asn1js.Integer)) return "refused";
  const hex = (at: number) => (fields[at] ? Buffer.from(fields[at].valueBeforeDecodeView).toString("hex") : "refused");
  const read = { serialNumberDer: hex(offset), issuerDer: hex(offset + 2), subjectDer: hex(offset + 4), subjectPublicKeyInfoDer: hex(offset + 5) };
  return Object.values(read).includes("refused") ? "refused" : read;
}

function fieldsNow(der: Uint8Array) {
  try {
    const fields = parseCertificateFields(der);
    return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, Buffer.from(value).toString("hex")]));
  } catch {
    return "refused";
  }
}

describe("parseCertificateFields", () => {
  test("reads the fields of our certificates and of the EU DSS files' certificates as asn1js's tree gives them, and refuses what it refused", async () => {
    const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    const signer = await issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: "Pérez Ñandú", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
    const certificates = [pki.root.certificateDer, pki.issuing.certificateDer, pki.tsa.certificateDer, signer.certificateDer, ...realWorldCertificates()];
    expect(certificates.length).toBeGreaterThan(40);
    const random = seededRandom(5280);
    const paths = { strict: 0, asn1js: 0 };
    for (const der of certificates) {
      expect(fieldsNow(der)).toEqual(fieldsWithAsn1js(der));
      paths[readStrictDer(der) ? "strict" : "asn1js"]++;
      for (let i = 0; i < 20; i++) {
        const mutated = new Uint8Array(der);
        mutated[Math.floor(random() * Math.min(der.length, 400))] = Math.floor(random() * 256);
        expect(fieldsNow(mutated), `a changed octet in ${Buffer.from(der.subarray(0, 8)).toString("hex")}`).toEqual(fieldsWithAsn1js(mutated));
      }
      expect(fieldsNow(der.subarray(0, der.length - 1))).toBe("refused");
      expect(fieldsNow(new Uint8Array([...der, 0]))).toBe("refused");
    }
    // both paths are taken: our certificates are strict DER, some of other CAs' are not
    expect(paths.strict).toBeGreaterThan(20);
    expect(paths.asn1js).toBeGreaterThan(0);
  }, 60_000);
});
