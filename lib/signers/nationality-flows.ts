import type { LivenessChallenge } from "@/lib/faces/assess-liveness";
import type { PersonIdType } from "@/lib/pki/issue-certificate";
import { nationalities, type Nationality } from "@/lib/processes/check-national-id";

export type FacialReference = "registry" | "id-document";

/** What identifying a signer of one ID type (nat) takes; documented in docs/process-api.md ("Per-nat flows"). */
export type NationalityFlow = {
  /** The document, as the signer pages and the stamp name it. */
  document: string;
  /** Form of doc_id (validated by check-national-id). */
  idFormat: string;
  /** person_id_type in the certificate serialNumber (IDC… or PAS…) and on the stamp. */
  idType: PersonIdType;
  /** ISO 3166 alpha-3 of the issuing country: the certificate's C and the stamp's nationality. */
  country: string;
  /** Reference portraits the selfie may be compared with, in order of preference. */
  facialReferences: FacialReference[];
  /** Head movements the liveness check may ask for; the server picks one per try. */
  challenges: LivenessChallenge[];
};

export const nationalityFlows: Record<Nationality, NationalityFlow> = {
  // RENIEC's photo for the DNI is what organizations load as registry photos; else the DNI itself
  PER: { document: "DNI", idFormat: "8 dígitos", idType: "DNI", country: "PER", facialReferences: ["registry", "id-document"], challenges: ["turn-left", "turn-right"] },
  // the RUN's check digit is validated at creation; the cédula's portrait or a registry photo
  CHL: { document: "RUN", idFormat: "8 dígitos, guion y dígito verificador", idType: "DNI", country: "CHL", facialReferences: ["registry", "id-document"], challenges: ["turn-left", "turn-right", "move-closer"] },
  // no registry photo exists for passports: the passport's own photo page is the reference
  PERPASS: { document: "Pasaporte", idFormat: "10 dígitos", idType: "PAS", country: "PER", facialReferences: ["id-document"], challenges: ["turn-left", "turn-right", "move-closer"] },
  // foreigner cards are issued by Migraciones, not RENIEC: the card's portrait is the reference
  PERCE: { document: "Carné de extranjería", idFormat: "12 dígitos", idType: "CE", country: "PER", facialReferences: ["id-document"], challenges: ["turn-left", "turn-right", "move-closer"] },
};

/** The flow of a nat; every nat a process can hold is in the table (decision 19). */
export function flowOf(nat: string): NationalityFlow {
  if (!(nationalities as readonly string[]).includes(nat)) throw new Error(`no flow for nat ${nat}`);
  return nationalityFlows[nat as Nationality];
}
