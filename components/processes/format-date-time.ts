/** Dates as staff read them: day and minute, in the server's locale format, with the zone spelled out (UTC). */
export function formatDateTime(date: Date | string | number, locale: string): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-PE", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(date)) + " UTC";
}
