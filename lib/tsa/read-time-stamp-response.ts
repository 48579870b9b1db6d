import * as asn1js from "asn1js";
import { childrenOf, unsignedIntegerOf } from "@/lib/pki/asn1-reading";
import { readSignedData } from "@/lib/pki/read-signed-data";
import { TsaError } from "@/lib/tsa/errors";
import { readTstInfo, type TstInfo } from "@/lib/tsa/read-tst-info";
import { type TimeStampFailure, timeStampFailureFromBit } from "@/lib/tsa/time-stamp-failure-info";

export type TimeStampResponse = {
  /** 0 granted, 1 grantedWithMods, 2 rejection, 3 waiting, 4 revocationWarning, 5 revocationNotification. */
  status: number;
  statusText: string[];
  failures: TimeStampFailure[];
  tokenDer?: Uint8Array;
  tstInfo?: TstInfo;
};

const invalid = (message: string) => new TsaError("TSA_INVALID_RESPONSE", message);

const malformed = (what: string) => invalid(`Malformed ${what}`);
const children = (block: asn1js.AsnType | undefined, what: string) => childrenOf(block, what, malformed);

/** Reads the TSTInfo out of a TimeStampToken (ContentInfo with SignedData); does not verify the signature. */
export function readTimeStampToken(tokenDer: Uint8Array): TstInfo {
  try {
    return readTstInfo(readSignedData(tokenDer));
  } catch (error) {
    throw invalid(`The time-stamp token is unreadable: ${error instanceof Error ? error.message : "unknown structure"}`);
  }
}

/** Reads a DER TimeStampResp (RFC 3161 2.4.2); throws TSA_INVALID_RESPONSE when it is malformed. */
export function readTimeStampResponse(responseDer: Uint8Array): TimeStampResponse {
  const parsed = asn1js.fromBER(responseDer);
  if (responseDer.length === 0 || parsed.result.error || parsed.offset !== responseDer.length) throw invalid("The response is not valid DER");
  const [statusInfo, token] = children(parsed.result, "TimeStampResp");
  const statusFields = children(statusInfo, "PKIStatusInfo");
  const status = Number(unsignedIntegerOf(statusFields[0], "status", malformed));
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
