import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./build-openapi-document";

// the document is walked generically: each level is indexed by names read from the level above
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an arbitrary JSON tree, typed by the OpenAPI schema the test checks
type Node = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"] as const;

const doc = buildOpenApiDocument("http://localhost:3000") as Node;

function resolve(ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Node)[key] : undefined), doc);
}
const deref = (node: Node): Node => (typeof node?.$ref === "string" ? (resolve(node.$ref) as Node) : node);

function collectRefs(node: unknown, at: string, out: { ref: string; at: string }[] = []) {
  if (Array.isArray(node)) node.forEach((child, i) => collectRefs(child, `${at}/${i}`, out));
  else if (node && typeof node === "object") {
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string") out.push({ ref: child, at });
      else collectRefs(child, `${at}/${key}`, out);
    }
  }
  return out;
}

/** Every operation of paths and webhooks, as [where, path template, operation]. */
const operations = (["paths", "webhooks"] as const).flatMap((section) =>
  Object.entries((doc[section] ?? {}) as Node).flatMap(([key, item]) =>
    METHODS.filter((m) => item[m]).map((m) => [`${m} ${section === "paths" ? key : `webhook ${key}`}`, section === "paths" ? key : null, item[m] as Node] as const),
  ),
);
const op = (method: string, path: string) => doc.paths[path]?.[method] as Node;

describe("OpenAPI document: structure (3.1)", () => {
  it("has the 3.1 header, and survives a JSON round trip unchanged", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe("string");
    expect(typeof doc.info.version).toBe("string");
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("resolves every $ref inside the document", () => {
    const refs = collectRefs(doc, "#");
    expect(refs.length).toBeGreaterThan(0);
    for (const { ref, at } of refs) expect(resolve(ref), `${ref} at ${at}`).toBeDefined();
  });

  it("gives every operation described responses with valid status keys", () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const [where, , operation] of operations) {
      const responses = Object.entries((operation.responses ?? {}) as Node);
      expect(responses.length, where).toBeGreaterThan(0);
      for (const [status, response] of responses) {
        expect(status, where).toMatch(/^([1-5](\d\d|XX)|default)$/);
        expect(typeof deref(response).description, `${where} ${status}`).toBe("string");
      }
      if (operation.requestBody) expect(Object.keys(deref(operation.requestBody).content ?? {}).length, where).toBeGreaterThan(0);
    }
  });

  it("declares parameters correctly, path templates included", () => {
    for (const [where, path, operation] of operations) {
      const parameters = ((operation.parameters ?? []) as Node[]).map(deref);
      for (const p of parameters) {
        expect(typeof p.name, where).toBe("string");
        expect(["query", "header", "path", "cookie"], `${where} ${p.name}`).toContain(p.in);
        expect(Number("schema" in p) + Number("content" in p), `${where} ${p.name}: schema xor content`).toBe(1);
        if (p.content) expect(Object.keys(p.content), `${where} ${p.name}`).toHaveLength(1);
      }
      const templated = [...(path ?? "").matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = parameters.filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), where).toEqual(templated);
      for (const p of declared) expect(p.required, `${where} ${p.name}`).toBe(true);
    }
  });

  it("uses declared security schemes and unique operationIds", () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    const ids = operations.map(([, , operation]) => operation.operationId).filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [where, , operation] of operations) {
      for (const requirement of (operation.security ?? []) as Node[]) {
        for (const name of Object.keys(requirement)) expect(schemes, where).toContain(name);
      }
    }
  });

  it("names in encoding objects are properties of their schema", () => {
    for (const [where, , operation] of operations) {
      for (const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Node)) {
        for (const name of Object.keys(media.encoding ?? {})) expect(Object.keys(deref(media.schema).properties), `${where} ${type}`).toContain(name);
      }
    }
  });
});

describe("OpenAPI document: signature-process API", () => {
  it("has every process operation with its method, and keeps the stamp API", () => {
    const expected = [
      ["post", "/api/auth/login"],
      ["put", "/api/signature_processes"],
      ["post", "/api/signature_processes"],
      ["get", "/api/signature_processes"],
      ["delete", "/api/signature_processes"],
      ["post", "/api/notify"],
      ["get", "/api/labels"],
      ["post", "/api/labels"],
      ["delete", "/api/labels"],
      ["get", "/api/documents/{id}"],
      ["post", "/api/v2/signPDF"],
      ["post", "/api/v3/signTimeStamp"],
      ["post", "/api/tsa"],
    ];
    for (const [method, path] of expected) expect(op(method, path), `${method} ${path}`).toBeDefined();
  });

  it("describes create as multipart with binary pdfFiles and JSON signers", () => {
    const body = op("put", "/api/signature_processes").requestBody.content["multipart/form-data"];
    const { pdfFiles, signers } = body.schema.properties;
    expect(pdfFiles.type).toBe("array");
    expect(pdfFiles.items).toEqual({ type: "string", format: "binary" });
    expect(body.schema.required).toEqual(expect.arrayContaining(["pdfFiles", "signers"]));
    expect(Object.keys(signers.items.properties)).toEqual(expect.arrayContaining(["nat", "doc_id", "signatureType", "signChallenges", "stampPositions", "contactInfo"]));
    for (const field of ["signOrder", "expire", "link_expire", "description", "urlCallback", "labels", "readChallenges"]) expect(body.schema.properties[field], field).toBeDefined();
    expect(body.encoding.signers.contentType).toBe("application/json");
    expect(deref(op("put", "/api/signature_processes").responses["201"]).content["application/json"].schema.$ref).toBe("#/components/schemas/CreatedProcess");
  });

  it.each([
    ["post", "/api/auth/login", "404", "not found"],
    ["put", "/api/signature_processes", "400", "bad request"],
    ["put", "/api/signature_processes", "401", "unauthorized"],
    ["put", "/api/signature_processes", "403", "forbidden"],
    ["post", "/api/signature_processes", "200", "ok"],
    ["post", "/api/signature_processes", "403", "forbidden"],
    ["post", "/api/signature_processes", "404", "not found"],
    ["get", "/api/signature_processes", "400", "bad request"],
    ["get", "/api/signature_processes", "404", "not found"],
    ["delete", "/api/signature_processes", "403", "forbidden"],
    ["delete", "/api/signature_processes", "404", "not found"],
    ["post", "/api/notify", "400", "bad request"],
    ["post", "/api/notify", "404", "not found"],
    ["get", "/api/labels", "400", "bad request"],
    ["post", "/api/labels", "200", "ok"],
    ["delete", "/api/labels", "400", "bad request"],
  ])("%s %s answers %s as text/plain `%s`", (method, path, status, body) => {
    const response = deref(op(method, path).responses[status]);
    expect(response.content["text/plain"].schema.const).toBe(body);
    if (status === "400") expect(response.headers["X-Error-Detail"]).toBeDefined();
  });

  it("lists with the spec's query parameters and the record schema", () => {
    const list = op("get", "/api/signature_processes");
    expect(list.parameters.map((p: Node) => p.name)).toEqual(["limit", "creation_start", "creation_end", "status", "process_id", "last_item"]);
    for (const status of ["200", "206"]) expect(list.responses[status].content["application/json"].schema.$ref).toBe("#/components/schemas/ProcessPage");
    const record = doc.components.schemas.ProcessPage.properties.signatureProcesses.items;
    const fields = ["id", "status", "date", "expire", "description", "sign_order", "documents", "signers", "signers_search", "labels", "readChallenges", "urlCallback", "nat", "per_id"];
    expect(Object.keys(record.properties)).toEqual(expect.arrayContaining(fields));
    expect(record.properties.date.type).toBe("string");
  });

  it("protects every process operation but login and document links with processJwt", () => {
    for (const [method, path] of [["put", "/api/signature_processes"], ["get", "/api/signature_processes"], ["post", "/api/notify"], ["delete", "/api/labels"]]) {
      expect(op(method, path).security).toEqual([{ processJwt: [] }]);
    }
    expect(op("post", "/api/auth/login").security).toBeUndefined();
    expect(op("get", "/api/documents/{id}").security).toEqual([]);
  });

  it("describes the callback as a signed webhook with epoch dates", () => {
    const callback = doc.webhooks.processConcluded.post;
    const signature = callback.parameters.find((p: Node) => p.name === "X-Signature");
    expect(signature).toMatchObject({ in: "header", required: true });
    expect("sha256=" + "ab".repeat(32)).toMatch(new RegExp(signature.schema.pattern));
    const payload = deref(callback.requestBody.content["application/json"].schema);
    expect(payload.properties.date.type).toBe("integer");
    expect(payload.properties.documents.items.properties.url).toBeDefined();
  });
});
