import { signerMessagesEn } from "./signer-messages-en";
import { signerMessagesEs } from "./signer-messages-es";

/** Texts of the signer pages: Spanish first, English by the `lang` cookie (as the dashboard). */
export const signerMessages = { es: signerMessagesEs, en: signerMessagesEn };
export type SignerLocale = keyof typeof signerMessages;
export type SignerMessageKey = keyof typeof signerMessagesEs;

export function signerTranslator(locale: SignerLocale) {
  const table = signerMessages[locale];
  return (key: SignerMessageKey, values: Record<string, string | number> = {}) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ""));
}
