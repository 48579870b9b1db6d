import * as asn1js from "asn1js";

/**
 * The small steps every hand-walked DER structure takes (SEQUENCE/SET/[n] children, OCTET STRING
 * contents, an AlgorithmIdentifier's OID, an unsigned INTEGER), written once. Each reader keeps its
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

/**
 * Whether a block carries exactly this tag: class (1 universal, 3 context), number and form, in the
 * short tag form. pkijs's schema matching compared these four, so a hand walk compares them too.
 */
export function hasTag(block: asn1js.AsnType | undefined, tagClass: 1 | 3, tagNumber: number, constructed: boolean): boolean {
  const id = block?.idBlock;
  return id !== undefined && id.tagClass === tagClass && id.tagNumber === tagNumber && id.isConstructed === constructed && !id.isHexOnly;
}

/** One field of a SEQUENCE: whether an element is that field (its whole shape), and whether it may be absent. */
export type FieldRule = { matches: (block: asn1js.AsnType) => boolean; optional?: boolean };

/**
 * The elements of a SEQUENCE matched in order to its fields, as asn1js's compareSchema (pkijs's schemas)
 * did: an optional field that does not match the next element is taken as absent, a required one fails,
 * the last element compared must have matched a field, and elements past the last field are ignored.
 * Returns one entry per field (undefined when absent), or undefined when the elements do not fit.
 */
export function matchFields(elements: asn1js.AsnType[], rules: FieldRule[]): (asn1js.AsnType | undefined)[] | undefined {
  const found: (asn1js.AsnType | undefined)[] = [];
  let next = 0;
  let lastCompared = true;
  for (const rule of rules) {
    const element = elements[next];
    if (element === undefined) {
      if (!rule.optional) return undefined;
      found.push(undefined);
    } else if (rule.matches(element)) {
      found.push(element);
      next++;
      lastCompared = true;
    } else {
      if (!rule.optional) return undefined;
      found.push(undefined);
      lastCompared = false;
    }
  }
  return lastCompared ? found : undefined;
}

/** The children of a constructed block when it has this tag, else undefined. */
export function childrenWithTag(block: asn1js.AsnType | undefined, tagClass: 1 | 3, tagNumber: number): asn1js.AsnType[] | undefined {
  if (!hasTag(block, tagClass, tagNumber, true)) return undefined;
  const value = (block as asn1js.Constructed).valueBlock.value;
  return Array.isArray(value) ? value : undefined;
}
