import * as asn1js from "asn1js";

/**
 * The small steps the hand-walked asn1js trees take (SEQUENCE/SET/[n] children, OCTET STRING
 * contents, an AlgorithmIdentifier's OID, an unsigned INTEGER), written once. The CMS and TSTInfo
 * readers walk their own trees (der-reading.ts). Each reader keeps its
 * own error type and wording, so the steps take the error to throw for a malformed piece.
 */
export type Malformed = (what: string) => Error;

/** The elements of a constructed block (SEQUENCE, SET or a constructed tagged field). */
export function childrenOf(block: asn1js.AsnType | undefined, what: string, malformed: Malformed): asn1js.AsnType[] {
  if (!(block instanceof asn1js.Constructed || block instanceof asn1js.Sequence || block instanceof asn1js.Set)) throw malformed(what);
  return block.valueBlock.value;
}

/** The contents of an OCTET STRING, including BER constructed strings (some exporters and signers write them). */
export function octetStringContent(block: unknown, what: string, malformed: Malformed): Uint8Array {
  if (!(block instanceof asn1js.OctetString)) throw malformed(what);
  if (!block.valueBlock.isConstructed) return new Uint8Array(block.valueBlock.valueHexView);
  return Buffer.concat(block.valueBlock.value.map((part) => octetStringContent(part, what, malformed)));
}

/** The algorithm OID of an AlgorithmIdentifier SEQUENCE. */
export function algorithmOidOf(algorithm: asn1js.AsnType | undefined, what: string, malformed: Malformed): string {
  const [id] = childrenOf(algorithm, what, malformed);
  if (!(id instanceof asn1js.ObjectIdentifier)) throw malformed(what);
  return id.valueBlock.toString();
}

/** An INTEGER read as unsigned (serial numbers, statuses): its content octets as a big-endian number. */
export function unsignedIntegerOf(block: asn1js.AsnType | undefined, what: string, malformed: Malformed): bigint {
  if (!(block instanceof asn1js.Integer)) throw malformed(what);
  return BigInt(`0x${Buffer.from(block.valueBlock.valueHexView).toString("hex") || "0"}`);
}

/** Whether a block is the context-specific field [tagNumber]. */
export function isContextTag(block: asn1js.AsnType | undefined, tagNumber: number): boolean {
  return block !== undefined && block.idBlock.tagClass === 3 && block.idBlock.tagNumber === tagNumber;
}
