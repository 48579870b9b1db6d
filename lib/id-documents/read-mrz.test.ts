import { describe, expect, it } from "vitest";
import { readMrz } from "./read-mrz";

// the last lines of what Tesseract read from a drawn card numbered 79310468 (check digit 6)
const zoneAsRead = (checkDigit: string) =>
  ["Fecha de caducidad 01 01 2035", `I<PER79310468<${checkDigit}<<<<<<<<<<<<<<<`, "8001014F3501014PER<<<<<<<<<<<0", "SO0TO0<<ANA<MARIA<<<<<<<<<<<<<<L<"].join("\n");

describe("readMrz", () => {
  it("reads a zone whose check digit is printed clearly", () => {
    expect(readMrz(zoneAsRead("6"))).toMatchObject({ documentNumber: "79310468", expiresOn: "2035-01-01" });
  });

  it("takes a lowercase b in the zone as the 6 it was, because the check digit then holds", () => {
    expect(readMrz(zoneAsRead("b"))).toMatchObject({ documentNumber: "79310468" });
  });

  it("leaves a b in the names line a letter: names hold no digits", () => {
    const withName = zoneAsRead("b").replace("SO0TO0<<ANA<MARIA<<<<<<<<<<<<<<L<", "SOTO<<BARbARA<<<<<<<<<<<<<<<<<<");
    expect(readMrz(withName)).toMatchObject({ documentNumber: "79310468", names: { lastName: "SOTO", firstName: "BARBARA" } });
  });

  it("a broken expiry check digit keeps the date as read, flagged, never silently dropped", () => {
    const broken = zoneAsRead("6").replace("F3501014PER", "F3501019PER");
    const reading = readMrz(broken);
    expect(reading).toMatchObject({ documentNumber: "79310468", expiryProblem: { reason: "mrz_expiry_check_digit", asRead: "2035-01-01" } });
    expect(reading).not.toHaveProperty("expiresOn");
    expect(readMrz(zoneAsRead("6"))).not.toHaveProperty("expiryProblem");
  });

  it("does not take the b as a 6 when the check digit still fails, nor any other wrong digit", () => {
    const wrongNumber = zoneAsRead("b").replace("79310468", "79310469");
    expect(readMrz(wrongNumber)).toBeNull();
    expect(readMrz(zoneAsRead("8"))).toBeNull();
  });
});
