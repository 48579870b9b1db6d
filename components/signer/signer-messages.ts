import { mergeCatalogues, type Locale } from "@/lib/i18n/catalogue";
import { signerPageMessages } from "./signer-page-messages";
import { signerIdentityMessages } from "./signer-identity-messages";
import { facialCheckMessages } from "./facial-check-messages";

/** The areas whose keys make the signer pages' table: Spanish first, English by the `lang` cookie (as the dashboard). */
export const signerAreas = { signerPageMessages, signerIdentityMessages, facialCheckMessages };

export const signerMessages = mergeCatalogues(signerAreas);
export type SignerLocale = Locale;
export type SignerMessageKey = keyof (typeof signerMessages)["es"];

export function signerTranslator(locale: SignerLocale) {
  const table = signerMessages[locale];
  return (key: SignerMessageKey, values: Record<string, string | number> = {}) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ""));
}
