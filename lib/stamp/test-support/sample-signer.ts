import type { StampData } from "@/lib/stamp/build-stamp-content";

/** One signer with Spanish accents and every optional field, shared by the stamp tests and benches. */
export const sampleSigner: StampData = {
  names: "María José",
  lastNames: "Núñez Güemes",
  personIdType: "DNI",
  personId: "45678912",
  nationality: "PER",
  email: "maria.jose.nunez@example.com",
  signType: "otp",
  txToken: "AbCdEfGhIj0123456789",
  signedAt: new Date("2026-11-23T00:46:04Z"),
  environment: "quality",
  verifyUrl: "https://firma.example.com/verificar/AbCdEfGhIj0123456789",
};
