import { oids } from "@/lib/pki/object-identifiers";

/** Message imprint algorithms the TSA accepts; SHA-1 and MD5 are refused (badAlg). */
export const timeStampHashAlgorithms = {
  "SHA-256": { oid: oids.sha256, length: 32, nodeName: "sha256" },
  "SHA-384": { oid: oids.sha384, length: 48, nodeName: "sha384" },
  "SHA-512": { oid: oids.sha512, length: 64, nodeName: "sha512" },
} as const;

export type TimeStampHashAlgorithm = keyof typeof timeStampHashAlgorithms;

export function timeStampHashAlgorithmByOid(oid: string): TimeStampHashAlgorithm | undefined {
  return (Object.keys(timeStampHashAlgorithms) as TimeStampHashAlgorithm[]).find((name) => timeStampHashAlgorithms[name].oid === oid);
}
