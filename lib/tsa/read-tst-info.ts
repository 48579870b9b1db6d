import * as pkijs from "pkijs";
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

/** Reads the TSTInfo that a time-stamp token's SignedData encapsulates; throws an Error naming what is wrong. */
export function readTstInfo(token: SignedDataReading): TstInfo {
  if (token.eContentTypeOid !== oids.tstInfo || !token.encapsulatedContent) throw new Error("the token does not hold a TSTInfo");
  const tstInfo = pkijs.TSTInfo.fromBER(new Uint8Array(token.encapsulatedContent));
  const serialHex = Buffer.from(tstInfo.serialNumber.valueBlock.valueHexView).toString("hex");
  return {
    policyOid: tstInfo.policy,
    hashAlgorithmOid: tstInfo.messageImprint.hashAlgorithm.algorithmId,
    imprint: new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView),
    serialNumber: BigInt(`0x${serialHex || "0"}`),
    serialHex,
    genTime: tstInfo.genTime,
    nonceContentDer: tstInfo.nonce ? new Uint8Array(tstInfo.nonce.valueBlock.valueHexView) : undefined,
  };
}
