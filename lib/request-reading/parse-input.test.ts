import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isAppError } from "@/lib/errors";
import { MAX_TEXT_BODY_BYTES, parseWith, readTextBody } from "./parse-input";
import { readFormFields } from "./read-form-fields";

function streamed(bytes: number, type: string): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += 65536;
      controller.enqueue(new Uint8Array(65536).fill(0x61));
    },
  });
  return new Request("http://local/x", { method: "POST", body, headers: { "content-type": type }, duplex: "half" } as RequestInit);
}

const codeOf = (error: unknown) => (isAppError(error) ? error.code : String(error));

describe("bounded text bodies", () => {
  it.each(["application/json", "application/x-www-form-urlencoded"])("%s past 1 MB without Content-Length: PAYLOAD_TOO_LARGE, read no further", async (type) => {
    const request = streamed(MAX_TEXT_BODY_BYTES * 8, type);
    const error = await readFormFields(request, { maxFileBytes: 1, maxFiles: 0 }).catch((e: unknown) => e);
    expect(codeOf(error)).toBe("PAYLOAD_TOO_LARGE");
  });

  it("a body that is not UTF-8 is a validation error", async () => {
    const error = await readTextBody(new Request("http://local/x", { method: "POST", body: new Uint8Array([0xff, 0xfe, 0xfd]) })).catch((e: unknown) => e);
    expect(codeOf(error)).toBe("VALIDATION");
  });
});

describe("control characters in text fields", () => {
  const schema = z.object({ name: z.string(), nested: z.object({ note: z.string() }).optional() });
  it.each([
    [{ name: "a\u0000b" }, "name"],
    [{ name: "ok", nested: { note: "x\u001by" } }, "nested.note"],
    [{ name: "ok", ["k\u0000"]: "v" }, "(key)"],
  ])("%j is refused naming %s", (input, field) => {
    let error: unknown;
    try {
      parseWith(schema, input);
    } catch (e) {
      error = e;
    }
    expect(codeOf(error)).toBe("VALIDATION");
    expect((error as Error).message).toContain(field);
  });

  it("tabs, line feeds and accents pass", () => {
    expect(parseWith(schema, { name: "José\tÑúñez\r\nPérez" }).name).toContain("Ñ");
  });
});
