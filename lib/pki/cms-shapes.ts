import type { DerNode } from "@/lib/pki/der-tree";
import { childrenWithTag, hasTag, matchFields, type FieldRule } from "@/lib/pki/der-reading";

/**
 * The shapes of the CMS structures (RFC 5652) that pkijs's schemas used to match, as predicates over
 * a parsed tree (der-tree.ts): the reader walks the tree it parsed once instead of rebuilding pkijs schema objects
 * for every block, which cost most of reading a CMS. Each predicate checks what the pkijs schema
 * checked (tags, forms, order, required and optional fields, and that elements past the last field
 * are ignored, as compareSchema did), no more and no less, so the reader refuses what it refused.
 */

type Block = DerNode;

export const isInteger = (block: Block | undefined) => hasTag(block, 1, 2, false);
export const isObjectIdentifier = (block: Block | undefined) => hasTag(block, 1, 6, false);
export const isPrimitiveOctetString = (block: Block | undefined) => hasTag(block, 1, 4, false);
export const sequenceChildren = (block: Block | undefined) => childrenWithTag(block, 1, 16);
export const setChildren = (block: Block | undefined) => childrenWithTag(block, 1, 17);

const anything: FieldRule = { matches: () => true };
const fits = (children: Block[] | undefined, rules: FieldRule[]) => children !== undefined && matchFields(children, rules) !== undefined;

/** AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL } */
export const isAlgorithmIdentifier = (block: Block) => fits(sequenceChildren(block), [{ matches: isObjectIdentifier }, { ...anything, optional: true }]);

/** Attribute ::= SEQUENCE { attrType OID, attrValues SET OF ANY } */
export const isAttribute = (block: Block) => fits(sequenceChildren(block), [{ matches: isObjectIdentifier }, { matches: (values) => setChildren(values) !== undefined }]);

/** Name ::= SEQUENCE OF SET OF SEQUENCE { type OID, value ANY } */
function isName(block: Block): boolean {
  const names = sequenceChildren(block);
  return names !== undefined && names.every((relative) => setChildren(relative)?.every((pair) => fits(sequenceChildren(pair), [{ matches: isObjectIdentifier }, anything])) ?? false);
}

/** IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER } */
export const isIssuerAndSerialNumber = (block: Block) => fits(sequenceChildren(block), [{ matches: isName }, { matches: isInteger }]);

/** SignerIdentifier ::= CHOICE { IssuerAndSerialNumber, [0] SubjectKeyIdentifier } (pkijs also took [0] wrapping an OCTET STRING) */
const isSignerIdentifier = (block: Block) =>
  isIssuerAndSerialNumber(block) || hasTag(block, 3, 0, false) || fits(childrenWithTag(block, 3, 0), [{ matches: isPrimitiveOctetString }]);

/** [n] IMPLICIT SET OF Attribute */
const isAttributes = (tagNumber: number) => (block: Block) => childrenWithTag(block, 3, tagNumber)?.every(isAttribute) ?? false;

/** SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, [0] signedAttrs OPTIONAL, signatureAlgorithm, signature OCTET STRING, [1] unsignedAttrs OPTIONAL } */
export const signerInfoFields: FieldRule[] = [
  { matches: isInteger },
  { matches: isSignerIdentifier },
  { matches: isAlgorithmIdentifier },
  { matches: isAttributes(0), optional: true },
  { matches: isAlgorithmIdentifier },
  { matches: isPrimitiveOctetString },
  { matches: isAttributes(1), optional: true },
];

/** EncapsulatedContentInfo ::= SEQUENCE { eContentType OID, [0] EXPLICIT eContent OPTIONAL } */
const isEncapsulatedContentInfo = (block: Block) =>
  fits(sequenceChildren(block), [{ matches: isObjectIdentifier }, { matches: (content) => fits(childrenWithTag(content, 3, 0), [anything]), optional: true }]);

/**
 * SignedData ::= SEQUENCE { version, digestAlgorithms SET OF AlgorithmIdentifier, encapContentInfo,
 * [0] certificates OPTIONAL, [1] crls OPTIONAL, signerInfos SET OF SignerInfo }. The items of the
 * certificates and crls fields are judged by the reader itself.
 */
export const signedDataFields: FieldRule[] = [
  { matches: isInteger },
  { matches: (block) => setChildren(block)?.every(isAlgorithmIdentifier) ?? false },
  { matches: isEncapsulatedContentInfo },
  { matches: (block) => childrenWithTag(block, 3, 0) !== undefined, optional: true },
  { matches: (block) => childrenWithTag(block, 3, 1) !== undefined, optional: true },
  { matches: (block) => setChildren(block)?.every((signerInfo) => fits(sequenceChildren(signerInfo), signerInfoFields)) ?? false },
];

/** ContentInfo ::= SEQUENCE { contentType OID, [0] EXPLICIT content ANY } */
export const contentInfoFields: FieldRule[] = [{ matches: isObjectIdentifier }, { matches: (content) => fits(childrenWithTag(content, 3, 0), [anything]) }];
