import * as pkijs from "pkijs";
import { childrenWithTag, hasTag, matchFields, type FieldRule } from "@/lib/pki/der-reading";
import { asAsn1js, parseDer, type DerNode } from "@/lib/pki/der-tree";
import { isAlgorithmIdentifier, isInteger, isObjectIdentifier, isPrimitiveOctetString, sequenceChildren } from "@/lib/pki/cms-shapes";
import { oids } from "@/lib/pki/object-identifiers";
import type { SignedDataReading } from "@/lib/pki/read-signed-data";

/** The fields of a TSTInfo (RFC 3161 2.4.2) that the TSA client and the verifier judge. */
export type TstInfo = {
  policyOid: string;
  hashAlgorithmOid: string;
  /** The hashed message of the messageImprint. */
  imprint: Uint8Array;
  serialNumber: bigint;
  serialHex: string;
  genTime: Date;
  /** Content octets of the nonce INTEGER, to compare byte for byte with the request. */
  nonceContentDer?: Uint8Array;
};

const optional = (matches: (block: DerNode) => boolean): FieldRule => ({ matches, optional: true });
const fits = (children: DerNode[] | undefined, rules: FieldRule[]) => children !== undefined && matchFields(children, rules) !== undefined;
/** What pkijs itself accepts as this structure: used for the rare optional fields (a TSA name, extensions), off the signing path. */
const readsAs = (read: () => unknown) => {
  try {
    read();
    return true;
  } catch {
    return false;
  }
};

/** MessageImprint ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier, hashedMessage OCTET STRING } */
const isMessageImprint = (block: DerNode) => fits(sequenceChildren(block), [{ matches: isAlgorithmIdentifier }, { matches: isPrimitiveOctetString }]);
/** Accuracy ::= SEQUENCE { seconds INTEGER OPTIONAL, millis [0] OPTIONAL, micros [1] OPTIONAL } */
const isAccuracy = (block: DerNode) => fits(sequenceChildren(block), [optional(isInteger), optional((field) => hasTag(field, 3, 0, false)), optional((field) => hasTag(field, 3, 1, false))]);

/**
 * TSTInfo ::= SEQUENCE { version, policy, messageImprint, serialNumber, genTime, accuracy OPTIONAL,
 * ordering BOOLEAN OPTIONAL, nonce INTEGER OPTIONAL, tsa [0] GeneralName OPTIONAL, extensions [1] OPTIONAL },
 * matched as pkijs's TSTInfo schema matched it.
 */
const tstInfoFields: FieldRule[] = [
  { matches: isInteger },
  { matches: isObjectIdentifier },
  { matches: isMessageImprint },
  { matches: isInteger },
  { matches: (block) => hasTag(block, 1, 24, false) && block.kind === "generalizedTime" },
  optional(isAccuracy),
  optional((block) => hasTag(block, 1, 1, false)),
  optional(isInteger),
  optional((block) => {
    const name = childrenWithTag(block, 3, 0)?.[0];
    return name !== undefined && readsAs(() => new pkijs.GeneralName({ schema: asAsn1js(name) }));
  }),
  optional((block) => childrenWithTag(block, 3, 1)?.every((extension) => readsAs(() => new pkijs.Extension({ schema: asAsn1js(extension) }))) ?? false),
];

/** Reads the TSTInfo that a time-stamp token's SignedData encapsulates; throws an Error naming what is wrong. */
export function readTstInfo(token: SignedDataReading): TstInfo {
  if (token.eContentTypeOid !== oids.tstInfo || !token.encapsulatedContent) throw new Error("the token does not hold a TSTInfo");
  const parsed = parseDer(token.encapsulatedContent);
  if (!parsed) throw new Error("the TSTInfo is not ASN.1");
  const children = sequenceChildren(parsed.node);
  const fields = children && matchFields(children, tstInfoFields);
  if (!fields) throw new Error("malformed TSTInfo");
  const [, policy, messageImprint, serialNumber, genTime, , , nonce] = fields;
  const [hashAlgorithm, hashedMessage] = sequenceChildren(messageImprint)!;
  const serialHex = Buffer.from(serialNumber!.content).toString("hex");
  return {
    policyOid: policy!.oid!,
    hashAlgorithmOid: sequenceChildren(hashAlgorithm)![0].oid!,
    imprint: new Uint8Array(hashedMessage.content),
    serialNumber: BigInt(`0x${serialHex || "0"}`),
    serialHex,
    genTime: genTime!.time!,
    nonceContentDer: nonce ? new Uint8Array(nonce.content) : undefined,
  };
}
