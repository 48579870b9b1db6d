import { createPrivateKey, sign as signBytes } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { beforeAll, describe, expect, test } from "vitest";
import { signPdf } from "@/lib/pdf/sign-pdf";
import type { IssuedCertificate } from "@/lib/pki/issued-certificate";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { verifyPdfSignatures } from "./verify-pdf-signatures";

/**
 * Issue 27: some signers send their signed attributes out of DER order (a SET OF must be sorted) and
 * sign the order as sent. That is what the signature covers, so that is what is verified.
 */
let genuine: GenuineOutputs;
let who: IssuedCertificate;

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
  who = await genuine.newSigner();
}, 120_000);

const compare = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Our CMS with the signed attributes re-sent in descending (non-DER) order, signed over `signedOrder`'s encoding. */
async function signedOutOfOrder(signedOrder: "as-sent" | "der"): Promise<Uint8Array> {
  return signPdf(genuine.original, {
    sign: async (digest) => {
      const der = await signCadesDetached({ digest, signer: { ...who, chainDer: [genuine.pki.issuing.certificateDer] } });
      const info = pkijs.ContentInfo.fromBER(new Uint8Array(der));
      const signedData = new pkijs.SignedData({ schema: info.content });
      const signerInfo = signedData.signerInfos[0];
      const encoded = signerInfo.signedAttrs!.attributes.map((attribute) => ({ attribute, der: new Uint8Array(attribute.toSchema().toBER(false)) }));
      const descending = [...encoded].sort((a, b) => compare(b.der, a.der));
      const ascending = [...encoded].sort((a, b) => compare(a.der, b.der));
      if (descending.every((item, i) => item === ascending[i])) throw new Error("the attributes do not reorder");
      const setOf = (items: typeof encoded) => new Uint8Array(new asn1js.Set({ value: items.map((item) => item.attribute.toSchema()) }).toBER(false));
      const key = createPrivateKey({ key: Buffer.from(who.pkcs8), format: "der", type: "pkcs8" });
      const signature = signBytes("sha256", setOf(signedOrder === "as-sent" ? descending : ascending), key);
      signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: descending.map((item) => item.attribute) });
      signerInfo.signature = new asn1js.OctetString({ valueHex: new Uint8Array(signature) });
      return new Uint8Array(new pkijs.ContentInfo({ contentType: info.contentType, content: signedData.toSchema(true) }).toSchema().toBER(false));
    },
  });
}

describe("signed attributes out of DER order", () => {
  test("signed over the order as sent: intact", async () => {
    const report = await verifyPdfSignatures(await signedOutOfOrder("as-sent"), genuine.anchorsDer);
    expect(report.signatures[0]).toMatchObject({ integrity: "intact" });
    expect(["valid", "untrusted"]).toContain(report.verdict);
  });

  test("forged: sent in one order, signed over another: the signature value does not verify", async () => {
    const report = await verifyPdfSignatures(await signedOutOfOrder("der"), genuine.anchorsDer);
    expect(report.signatures[0]).toMatchObject({ status: "invalid", integrity: "signature-invalid" });
  });
});
