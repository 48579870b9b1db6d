/** The organization's zone when none is set: FirmaViva is Peru-first. */
export const DEFAULT_TIME_ZONE = "America/Lima";

/** True for an IANA zone name this runtime knows (Intl throws on anything else). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}

/** Zones offered in the settings form: the runtime's list, with UTC kept available. */
export function selectableTimeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [DEFAULT_TIME_ZONE];
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/** Offset of `zone` from UTC at `instant`, as "+hh:mm" / "-hh:mm". */
export function zoneOffsetAt(zone: string, instant: Date): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(instant)
    .find((p) => p.type === "timeZoneName")?.value;
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name ?? "");
  return m ? `${m[1]}:${m[2] ?? "00"}` : "+00:00";
}

const offsetMinutes = (offset: string) => (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));

/**
 * The UTC offset in force at wall-clock `time` of `isoDay` in `zone` (e.g. a day filter read in the
 * organization's zone). Two passes settle days on which the offset changes.
 */
export function zoneOffsetOnDay(zone: string, isoDay: string, time: string): string {
  const wall = Date.parse(`${isoDay}T${time}Z`);
  let offset = zoneOffsetAt(zone, new Date(wall));
  offset = zoneOffsetAt(zone, new Date(wall - offsetMinutes(offset) * 60_000));
  return offset;
}
