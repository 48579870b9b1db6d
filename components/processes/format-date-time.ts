/** Dates as staff read them: day and minute in the organization's zone, with its UTC offset spelled out. */
export function formatDateTime(date: Date | string | number, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-PE", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  }).format(new Date(date)) + ` (${zoneLabel(date, locale, timeZone)})`;
}

function zoneLabel(date: Date | string | number, locale: string, timeZone: string): string {
  const offset = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-PE", { timeZone, timeZoneName: "shortOffset" })
    .formatToParts(new Date(date))
    .find((p) => p.type === "timeZoneName")?.value;
  return offset ?? timeZone;
}
