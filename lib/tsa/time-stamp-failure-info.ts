/** PKIFailureInfo bits used by RFC 3161 responses (RFC 3161 2.4.2). */
export const timeStampFailureBits = {
  badAlg: 0,
  badRequest: 2,
  badDataFormat: 5,
  timeNotAvailable: 14,
  unacceptedPolicy: 15,
  unacceptedExtension: 16,
  addInfoNotAvailable: 17,
  systemFailure: 25,
} as const;

export type TimeStampFailure = keyof typeof timeStampFailureBits;

export function timeStampFailureFromBit(bit: number): TimeStampFailure | undefined {
  return (Object.keys(timeStampFailureBits) as TimeStampFailure[]).find((name) => timeStampFailureBits[name] === bit);
}
