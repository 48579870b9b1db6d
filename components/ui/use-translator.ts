import { messages, type Locale, type MessageKey } from "@/lib/i18n/messages";

/** Client components get the locale from their server page and translate with the same table. */
export function translatorFor(locale: Locale) {
  return (key: MessageKey) => messages[locale][key];
}
