import { cookies } from "next/headers";
import { messages, type Locale, type MessageKey } from "./messages";

export async function getLocale(): Promise<Locale> {
  const value = (await cookies()).get("lang")?.value;
  return value === "en" ? "en" : "es";
}

/** Server-side translator for the current request's language cookie. */
export async function getTranslator() {
  const locale = await getLocale();
  return { locale, t: (key: MessageKey) => messages[locale][key] };
}
