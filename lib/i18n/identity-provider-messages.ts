import type { Catalogue } from "./catalogue";

/** The eID identity provider section of the organization page. Spanish first; same keys in English. */
const es = {
  "eid.title": "Identidad digital (eID) por OpenID Connect",
  "eid.help":
    "Los firmantes creados con signChallenges [\"eid\"] se identifican en este proveedor (un eID nacional, ID Gob.pe, una banca…) en lugar de la validación facial. El número de documento que el proveedor confirma debe ser el del firmante. Registre en el proveedor esta URL de retorno:",
  "eid.none": "No hay proveedor configurado: los procesos con signChallenges eid se rechazan.",
  "eid.displayName": "Nombre que verá el firmante",
  "eid.issuer": "Issuer (URL del proveedor)",
  "eid.clientId": "Client ID",
  "eid.clientSecret": "Client secret",
  "eid.clientSecretKept": "Guardado y cifrado; déjelo vacío para conservarlo.",
  "eid.scopes": "Scopes (separados por espacios; openid se agrega siempre)",
  "eid.documentNumberClaim": "Claim con el número de documento",
  "eid.givenNameClaim": "Claim con los nombres",
  "eid.familyNameClaim": "Claim con los apellidos",
  "eid.save": "Configurar proveedor",
  "eid.remove": "Quitar proveedor",
  "eid.readOnly": "Solo el propietario o un administrador puede cambiar el proveedor de identidad.",
};

export const identityProviderMessages = {
  es,
  en: {
    "eid.title": "Digital identity (eID) through OpenID Connect",
    "eid.help":
      "Signers created with signChallenges [\"eid\"] identify at this provider (a national eID, ID Gob.pe, a bank…) instead of the facial check. The document number the provider confirms must be the signer's. Register this return URL at the provider:",
    "eid.none": "No provider configured: processes with signChallenges eid are refused.",
    "eid.displayName": "Name the signer sees",
    "eid.issuer": "Issuer (provider URL)",
    "eid.clientId": "Client ID",
    "eid.clientSecret": "Client secret",
    "eid.clientSecretKept": "Stored encrypted; leave empty to keep it.",
    "eid.scopes": "Scopes (space-separated; openid is always added)",
    "eid.documentNumberClaim": "Claim holding the document number",
    "eid.givenNameClaim": "Claim holding the given names",
    "eid.familyNameClaim": "Claim holding the family names",
    "eid.save": "Configure provider",
    "eid.remove": "Remove provider",
    "eid.readOnly": "Only the owner or an administrator can change the identity provider.",
  },
} satisfies Catalogue<typeof es>;
