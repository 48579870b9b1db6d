export const DEFAULT_STAMP_TIME_ZONE = "America/Lima";

/**
 * `dd/MM/yyyy HH:mm:ss ±HH:MM` in an IANA zone. The offset is derived from the zone's wall clock at
 * that instant, so daylight-saving zones show the offset that was actually in force.
 */
export function formatStampDate(date: Date, timeZone: string = DEFAULT_STAMP_TIME_ZONE): string {
  const parts = wallClockFormat(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const [year, month, day] = [part("year"), part("month"), part("day")];
  const [hour, minute, second] = [part("hour"), part("minute"), part("second")];

  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMinutes = Math.round((wallClock - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);

  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(day)}/${two(month)}/${year} ${two(hour)}:${two(minute)}:${two(second)} ${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

// building a formatter costs about as much as drawing a stamp's text; a zone's formatter never changes
const formats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    // throws RangeError for an unknown zone: a configuration mistake, not a user error (and never cached)
    format = new Intl.DateTimeFormat("en-GB", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    // zones are a configured few; the bound only guards against a caller passing arbitrary strings
    if (formats.size < 64) formats.set(timeZone, format);
  }
  return format;
}
