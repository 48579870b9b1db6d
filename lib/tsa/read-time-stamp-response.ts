import * as asn1js from "asn1js";
import { oids } from "@/lib/pki/object-identifiers";
import { TsaError } from "@/lib/tsa/errors";
import { type TimeStampFailure, timeStampFailureFromBit } from "@/lib/tsa/time-stamp-failure-info";

export type TstInfo = {
  policyOid: string;
  hashAlgorithmOid: string;
  digest: Uint8Array;
  serialNumber: bigint;
  genTime: Date;
  /** Content octets of the nonce INTEGER, to compare byte for byte with the request. */
  nonceContentDer?: Uint8Array;
};

export type TimeStampResponse = {
  /** 0 granted, 1 grantedWithMods, 2 rejection, 3 waiting, 4 revocationWarning, 5 revocationNotification. */
  status: number;
  statusText: string[];
  failures: TimeStampFailure[];
  tokenDer?: Uint8Array;
  tstInfo?: TstInfo;
};

const invalid = (message: string) => new TsaError("TSA_INVALID_RESPONSE", message);

function children(block: asn1js.AsnType | undefined, what: string): asn1js.AsnType[] {
  if (!(block instanceof asn1js.Constructed || block instanceof asn1js.Sequence || block instanceof asn1js.Set)) {
    throw invalid(`Malformed ${what}`);
  }
  return block.valueBlock.value;
}

function unsignedInteger(block: asn1js.AsnType | undefined, what: string): bigint {
  if (!(block instanceof asn1js.Integer)) throw invalid(`Malformed ${what}`);
  return BigInt(`0x${Buffer.from(block.valueBlock.valueHexView).toString("hex") || "0"}`);
}

function octetContent(block: asn1js.AsnType): Uint8Array {
  if (!(block instanceof asn1js.OctetString)) throw invalid("Malformed eContent");
  if (!block.valueBlock.isConstructed) return new Uint8Array(block.valueBlock.valueHexView);
  return Buffer.concat(block.valueBlock.value.map(octetContent));
}

/** Reads the TSTInfo out of a TimeStampToken (ContentInfo with SignedData); does not verify the signature. */
export function readTimeStampToken(tokenDer: Uint8Array): TstInfo {
  const parsed = asn1js.fromBER(tokenDer);
  if (parsed.result.error) throw invalid("The token is not valid DER");
  const [contentType, content] = children(parsed.result, "ContentInfo");
  if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== oids.signedData) {
    throw invalid("The token is not a SignedData");
  }
  const signedData = children(children(content, "ContentInfo content")[0], "SignedData");
  const [eContentType, eContent] = children(signedData[2], "encapContentInfo");
  if (!(eContentType instanceof asn1js.ObjectIdentifier) || eContentType.valueBlock.toString() !== oids.tstInfo) {
    throw invalid("The token does not hold a TSTInfo");
  }
  const tstInfoDer = octetContent(children(eContent, "eContent")[0]!);
  const tstParsed = asn1js.fromBER(tstInfoDer);
  if (tstParsed.result.error) throw invalid("TSTInfo is not valid DER");
  const fields = children(tstParsed.result, "TSTInfo");
  const [, policy, imprint, serial, genTime] = fields;
  const [algorithm, digest] = children(imprint, "messageImprint");
  const [hashOid] = children(algorithm, "hash algorithm");
  if (!(policy instanceof asn1js.ObjectIdentifier) || !(hashOid instanceof asn1js.ObjectIdentifier)) throw invalid("Malformed TSTInfo");
  if (!(digest instanceof asn1js.OctetString) || !(genTime instanceof asn1js.GeneralizedTime)) throw invalid("Malformed TSTInfo");
  const nonce = fields.slice(5).find((field): field is asn1js.Integer => field instanceof asn1js.Integer);
  return {
    policyOid: policy.valueBlock.toString(),
    hashAlgorithmOid: hashOid.valueBlock.toString(),
    digest: new Uint8Array(digest.valueBlock.valueHexView),
    serialNumber: unsignedInteger(serial, "serialNumber"),
    genTime: genTime.toDate(),
    nonceContentDer: nonce ? new Uint8Array(nonce.valueBlock.valueHexView) : undefined,
  };
}

/** Reads a DER TimeStampResp (RFC 3161 2.4.2); throws TSA_INVALID_RESPONSE when it is malformed. */
export function readTimeStampResponse(responseDer: Uint8Array): TimeStampResponse {
  const parsed = asn1js.fromBER(responseDer);
  if (responseDer.length === 0 || parsed.result.error || parsed.offset !== responseDer.length) throw invalid("The response is not valid DER");
  const [statusInfo, token] = children(parsed.result, "TimeStampResp");
  const statusFields = children(statusInfo, "PKIStatusInfo");
  const status = Number(unsignedInteger(statusFields[0], "status"));
  const statusText: string[] = [];
  const failures: TimeStampFailure[] = [];
  for (const field of statusFields.slice(1)) {
    if (field instanceof asn1js.Sequence) {
      for (const text of field.valueBlock.value) if (text instanceof asn1js.Utf8String) statusText.push(text.valueBlock.value);
    } else if (field instanceof asn1js.BitString) {
      const bytes = field.valueBlock.valueHexView;
      for (let bit = 0; bit < bytes.length * 8; bit++) {
        const name = bytes[bit >> 3]! & (0x80 >> (bit & 7)) ? timeStampFailureFromBit(bit) : undefined;
        if (name) failures.push(name);
      }
    }
  }
  if (!token) return { status, statusText, failures };
  const tokenDer = new Uint8Array(token.valueBeforeDecodeView);
  return { status, statusText, failures, tokenDer, tstInfo: readTimeStampToken(tokenDer) };
}
