import { LIVENESS_CHALLENGES, type LivenessChallenge } from "@/lib/faces/measure-challenge";
import type { PersonIdType } from "@/lib/pki/issue-certificate";
import { nationalities, type Nationality } from "@/lib/identity-registry/check-national-id";

export type FacialReference = "registry" | "id-document";

/**
 * What identifying a signer of one ID type (nat) takes: the one table the signer flow reads
 * (documented in docs/process-api.md, "Per-nat flows"). The ID format itself is checked by
 * lib/identity-registry/check-national-id.ts when the process is created and when the signer identifies.
 */
export type NationalityFlow = {
  /** The document, as the signer pages and the stamp name it. */
  document: string;
  /** person_id_type in the certificate serialNumber (IDC… or PAS…) and on the stamp. */
  idType: PersonIdType;
  /** ISO 3166 alpha-3 of the issuing country: the certificate's C and the stamp's nationality. */
  country: string;
  /** Reference portraits the selfie may be compared with, in order of preference. */
  facialReferences: FacialReference[];
  /** Movements the liveness check may ask for (two per try, one of them a turn: both turns must be here). */
  challenges: readonly LivenessChallenge[];
};

export const nationalityFlows: Record<Nationality, NationalityFlow> = {
  // organizations load RENIEC's DNI photo as registry photos; without one, the DNI card itself (TD1 MRZ)
  PER: { document: "DNI", idType: "DNI", country: "PER", facialReferences: ["registry", "id-document"], challenges: LIVENESS_CHALLENGES },
  // the RUN's check digit is validated at creation; the cédula (TD1 MRZ) or a registry photo
  CHL: { document: "Cédula de identidad (RUN)", idType: "DNI", country: "CHL", facialReferences: ["registry", "id-document"], challenges: LIVENESS_CHALLENGES },
  // no registry holds passport photos: the passport's photo page is the reference (its number read from the printed text)
  PERPASS: { document: "Pasaporte", idType: "PAS", country: "PER", facialReferences: ["id-document"], challenges: LIVENESS_CHALLENGES },
  // foreigner cards come from Migraciones, not RENIEC: the card's portrait is the reference; no smile
  // (a card portrait is neutral, and a second movement with the head keeps the match on a neutral face)
  PERCE: { document: "Carné de extranjería", idType: "CE", country: "PER", facialReferences: ["id-document"], challenges: ["turn-left", "turn-right", "look-up", "move-closer"] },
};

/** The flow of a nat; every nat a process can hold is in the table (decision 19). */
export function flowOf(nat: string): NationalityFlow {
  if (!(nationalities as readonly string[]).includes(nat)) throw new Error(`no flow for nat ${nat}`);
  return nationalityFlows[nat as Nationality];
}
