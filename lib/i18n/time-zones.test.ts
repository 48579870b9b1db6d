import { describe, expect, it } from "vitest";
import { isKnownTimeZone, zoneOffsetAt, zoneOffsetOnDay } from "./time-zones";

describe("time zones", () => {
  it.each([
    ["America/Lima", "2026-11-25", "00:00:00", "-05:00"],
    ["America/Lima", "2026-11-25", "23:59:59", "-05:00"],
    ["UTC", "2026-11-25", "00:00:00", "+00:00"],
    ["Asia/Kolkata", "2026-01-10", "00:00:00", "+05:30"],
    // Chile: clocks go from 00:00 to 01:00 on 2026-09-06 (UTC-4 -> UTC-3); the end of that day is UTC-3
    ["America/Santiago", "2026-09-06", "23:59:59", "-03:00"],
    ["America/Santiago", "2026-09-05", "00:00:00", "-04:00"],
  ])("%s on %s at %s is %s", (zone, day, time, offset) => {
    expect(zoneOffsetOnDay(zone, day, time)).toBe(offset);
  });

  it("reads the offset at an instant", () => {
    expect(zoneOffsetAt("America/Lima", new Date("2026-11-25T03:00:00Z"))).toBe("-05:00");
  });

  it.each([
    ["America/Lima", true],
    ["UTC", true],
    ["Mars/Olympus", false],
    ["", false],
    ["America/Lima; drop table", false],
  ])("%s known: %s", (zone, known) => {
    expect(isKnownTimeZone(zone)).toBe(known);
  });
});
