import type { DerNode } from "@/lib/pki/der-tree";

/**
 * The small steps the hand-walked CMS and TSTInfo readers take over a DerNode tree (SEQUENCE/SET/[n]
 * children, OCTET STRING contents, tags, a SEQUENCE's fields in order), written once. Each reader keeps
 * its own error type and wording, so the steps take the error to throw for a malformed piece.
 */
export type Malformed = (what: string) => Error;

/** The elements of a constructed block (SEQUENCE, SET or a constructed tagged field), as asn1js's Constructed. */
export function childrenOf(block: DerNode | undefined, what: string, malformed: Malformed): DerNode[] {
  if (block?.kind !== "sequence" && block?.kind !== "set" && block?.kind !== "constructed") throw malformed(what);
  return block.children;
}

/** The contents of an OCTET STRING, including BER constructed strings (some exporters and signers write them). */
export function octetStringContent(block: DerNode | undefined, what: string, malformed: Malformed): Uint8Array {
  if (block?.kind !== "octetString") throw malformed(what);
  if (!block.constructed) return new Uint8Array(block.content);
  return Buffer.concat(block.children.map((part) => octetStringContent(part, what, malformed)));
}

/**
 * Whether a block carries exactly this tag: class (1 universal, 3 context), number and form, in the
 * short tag form. pkijs's schema matching compared these four, so a hand walk compares them too.
 */
export function hasTag(block: DerNode | undefined, tagClass: 1 | 3, tagNumber: number, constructed: boolean): boolean {
  return block !== undefined && block.tagClass === tagClass && block.tagNumber === tagNumber && block.constructed === constructed && !block.longTag;
}

/** The children of a constructed block when it has this tag, else undefined. */
export function childrenWithTag(block: DerNode | undefined, tagClass: 1 | 3, tagNumber: number): DerNode[] | undefined {
  return hasTag(block, tagClass, tagNumber, true) ? block!.children : undefined;
}

/** One field of a SEQUENCE: whether an element is that field (its whole shape), and whether it may be absent. */
export type FieldRule = { matches: (block: DerNode) => boolean; optional?: boolean };

/**
 * The elements of a SEQUENCE matched in order to its fields, as asn1js's compareSchema (pkijs's schemas)
 * did: an optional field that does not match the next element is taken as absent, a required one fails,
 * the last element compared must have matched a field, and elements past the last field are ignored.
 * Returns one entry per field (undefined when absent), or undefined when the elements do not fit.
 */
export function matchFields(elements: DerNode[], rules: FieldRule[]): (DerNode | undefined)[] | undefined {
  const found: (DerNode | undefined)[] = [];
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
