import { loadPlatformPki, type PkiSettings } from "./load-platform-pki";
import type { Db } from "@/db/client";

function toPem(der: Uint8Array): string {
  const base64 = Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

/** The public CA certificates relying parties import: root first, then the issuing CA. */
export async function getCaCertificates({ db, settings }: { db: Db; settings: PkiSettings }) {
  const pki = await loadPlatformPki({ db, settings });
  return {
    rootDer: pki.root.certificateDer,
    pem: toPem(pki.root.certificateDer) + toPem(pki.issuing.certificateDer),
  };
}
