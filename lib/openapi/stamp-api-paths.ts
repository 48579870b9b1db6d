import { ZSignPdfFields, ZGetSignedPdfQuery, ZUpdateSignCredentials } from "@/lib/stamp-signing/schemas";
import { ZStampTokenRequest } from "@/lib/auth/schemas";
import { ZEnrollCertificateHolder } from "@/lib/stamp-signing/enroll-certificate-holder";
import { binary, multipartWithFiles, queryParameters, toSchema, type JsonSchema } from "./schema-from-zod";

const tags = ["Stamp API"];
const bearer = [{ stampBearer: [] }];
const stampFailure = {
  description: "Failure: `{success:false, message}` (400 invalid field, 401 token, 409 tx_token reused, 413 too large, 500 other)",
  content: { "application/json": { schema: { $ref: "#/components/schemas/StampFailure" } } },
};

export const stampApiComponents = {
  securitySchemes: {
    stampBearer: { type: "http", scheme: "bearer", description: "Token from /api/auth/token (v2) or /api/v3/auth/token (v3); only the latest one works" },
  },
  schemas: {
    StampFailure: { type: "object", properties: { success: { const: false }, message: { type: "string" } }, required: ["success", "message"] },
    SignedPdf: { type: "object", properties: { success: { type: "boolean" }, message: { type: "string" }, tx_token: { type: "string" }, signed_pdf: { type: "string", contentEncoding: "base64" }, pades_level: { type: ["string", "null"], enum: ["B-B", "B-T", "B-LT", "B-LTA", null], description: "PAdES level the output reaches (B-LT normally; B-T when revocation data for an outside certificate could not be had). Binary answers carry it in the X-Pades-Level header." }, revocation_unavailable: { type: "array", items: { type: "string" }, description: "Certificates left without revocation data, and why (only when there are any)." } } },
  },
};

function versioned(path: (v: "v2" | "v3") => string, operation: (v: "v2" | "v3") => JsonSchema) {
  return { [path("v2")]: operation("v2"), [path("v3")]: operation("v3") };
}

/** Stamp-signing API v2/v3 (stamp-signing-service.md); failures are JSON `{success:false, message}`. */
export const stampApiPaths: Record<string, JsonSchema> = {
  "/api/auth/token": {
    post: {
      tags,
      summary: "Stamp API v2 token",
      requestBody: { required: true, content: { "application/json": { schema: toSchema(ZStampTokenRequest) } } },
      responses: { "200": { description: "`{status:200, data:{token}}`" }, "401": stampFailure },
    },
  },
  "/api/v3/auth/token": {
    post: {
      tags,
      summary: "Stamp API v3 token (JWT)",
      requestBody: { required: true, content: { "application/json": { schema: toSchema(ZStampTokenRequest) } } },
      responses: { "200": { description: "`{token}`" }, "401": { description: '`{error:"invalid_credentials"}`' } },
    },
  },
  ...versioned((v) => `/api/${v}/signPDF`, (v) => ({
    post: {
      tags,
      summary: `Sign a PDF with a visual stamp (${v})`,
      security: bearer,
      requestBody: { required: true, content: { "multipart/form-data": { schema: multipartWithFiles(ZSignPdfFields, { pdf_file: { description: "PDF to sign", required: true }, image: { description: "JPG/PNG, portrait or square; required when page is sent" } }) } } },
      responses: {
        "200": { description: "Sync: `{success, message:\"OK\", tx_token, signed_pdf}`, or application/pdf when binary_resp=1. Async: `{success, message, tx_token, doc_id}`", content: { "application/json": { schema: { $ref: "#/components/schemas/SignedPdf" } }, "application/pdf": { schema: binary } } },
        "400": stampFailure, "401": stampFailure, "409": stampFailure, "413": stampFailure, "500": stampFailure,
      },
    },
  })),
  ...versioned((v) => `/api/${v}/getSignedPDF`, (v) => ({
    get: {
      tags,
      summary: `Fetch an async result (${v})`,
      security: bearer,
      parameters: queryParameters(ZGetSignedPdfQuery).map((p) => ({ ...p, required: p.name === "tx_token" })),
      responses: { "200": { description: "done: the signed PDF" }, "202": { description: "pending: `El documento aún se está procesando`" }, "422": { description: "failed: the failure message" }, "404": stampFailure },
    },
  })),
  ...versioned((v) => `/api/${v}/updateSignCredentials`, (v) => ({
    post: {
      tags,
      summary: `Register certificate user name and password (${v})`,
      security: bearer,
      requestBody: { required: true, content: { "application/json": { schema: toSchema(ZUpdateSignCredentials) } } },
      responses: { "200": { description: "`Credenciales registradas correctamente`" }, "400": stampFailure },
    },
  })),
  ...versioned((v) => `/api/${v}/signTimeStamp`, (v) => ({
    post: {
      tags,
      summary: `RFC 3161 time stamp for a .tsq (${v})`,
      security: bearer,
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object", properties: { tsq_file: binary }, required: ["tsq_file"] } } } },
      responses: { "200": { description: "`{success, message, tx_token, tsr_file}` (Base64 .tsr)" }, "400": stampFailure },
    },
  })),
  ...versioned((v) => `/api/${v}/certificateHolders`, (v) => ({
    post: {
      tags,
      summary: `Enrol a certificate holder for sign_type=digital (${v}; admin)`,
      description:
        "**Our extension.** The vendor's documents have no enrolment endpoint: they assume the service already holds a certificate for `sign_username`. " +
        "Here a holder must be enrolled first (built-in CA or PKCS#12); signPDF with `sign_type=digital` then names it by `sign_username`. See docs/stamp-api.md.",
      "x-firmaviva-extension": true,
      security: bearer,
      requestBody: { required: true, content: { "multipart/form-data": { schema: multipartWithFiles(ZEnrollCertificateHolder, { p12_file: { description: "PKCS#12 (.p12/.pfx) when source=pkcs12" } }) } } },
      responses: { "201": { description: "holder enrolled" }, "400": stampFailure, "403": stampFailure, "409": stampFailure },
    },
  })),
  ...versioned((v) => `/api/${v}/agentCertificate`, (v) => ({
    post: {
      tags,
      summary: `Import the organization's own agent certificate from PKCS#12 (${v}; admin)`,
      description: "**Our extension**, not in the vendor's documents. See docs/stamp-api.md.",
      "x-firmaviva-extension": true,
      security: bearer,
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object", properties: { p12_file: binary, p12_password: { type: "string" } }, required: ["p12_file"] } } } },
      responses: { "201": { description: "imported; agente and otp signatures use it from now on" }, "400": stampFailure, "403": stampFailure },
    },
  })),
  "/api/tsa": {
    post: {
      tags,
      summary: "RFC 3161 time-stamp authority (standard HTTP transport)",
      requestBody: { required: true, content: { "application/timestamp-query": { schema: binary } } },
      responses: { "200": { description: "TimeStampResp", content: { "application/timestamp-reply": { schema: binary } } } },
    },
  },
};
