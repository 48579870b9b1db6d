import type { z } from "zod";
import { PROCESS_TOKEN_TTL_SECONDS, ZProcessLogin } from "@/lib/auth/issue-process-token";
import { ZLabelBody, ZLabelPage, ZListLabelsQuery } from "@/lib/labels/schemas";
import {
  ZCallbackPayload,
  ZCreatedProcess,
  ZCreateProcessFields,
  ZListProcessesQuery,
  ZModifyProcess,
  ZNotifyProcess,
  ZProcessPage,
  ZRejectAnswer,
  ZRejectProcesses,
  ZSigningLinks,
} from "@/lib/processes/schemas";
import { binary, multipartWithFiles, queryParameters, toSchema, type JsonSchema } from "./schema-from-zod";

const jwt = [{ processJwt: [] }];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ "application/json": { schema } });
const jsonPart = { contentType: "application/json" };

/** Error bodies are short plain text, exactly as the spec's error table gives them (decision 15). */
const plain = (body: string, description: string) => ({ description, content: { "text/plain": { schema: { type: "string", const: body } } } });
const badRequest = { $ref: "#/components/responses/BadRequest" };
const guarded = { "401": { $ref: "#/components/responses/Unauthorized" }, "403": plain("forbidden", "The credential's role lacks the permission") };

/** Modify, reject, notify and labels take JSON, urlencoded or multipart; in forms, JSON fields are text. */
function formBody(schema: z.ZodType, jsonFields: string[] = []) {
  const form = { schema: toSchema(schema), ...(jsonFields.length > 0 ? { encoding: Object.fromEntries(jsonFields.map((name) => [name, jsonPart])) } : {}) };
  return { required: true, content: { "multipart/form-data": form, "application/x-www-form-urlencoded": form, ...json(toSchema(schema)) } };
}

export const processApiComponents = {
  securitySchemes: {
    processJwt: { type: "apiKey", in: "header", name: "Authorization", description: `\`jwt-bearer <access_token>\` from /api/auth/login; valid ${PROCESS_TOKEN_TTL_SECONDS / 3600} h` },
  },
  schemas: {
    CreatedProcess: toSchema(ZCreatedProcess),
    ProcessPage: toSchema(ZProcessPage),
    RejectAnswer: toSchema(ZRejectAnswer),
    LabelPage: toSchema(ZLabelPage),
    CallbackPayload: toSchema(ZCallbackPayload),
  },
  responses: {
    BadRequest: {
      description: "Request wrong or incomplete",
      headers: { "X-Error-Detail": { description: "The offending field and why, e.g. `signers.0.doc_id: ...`", schema: { type: "string" } } },
      content: { "text/plain": { schema: { type: "string", const: "bad request" } } },
    },
    Unauthorized: plain("unauthorized", "Missing, invalid or expired token"),
  },
};

const tags = { auth: ["Process API: auth"], processes: ["Process API: signature processes"], labels: ["Process API: labels"] };

/** Signature-process API (signature-process-service.md, decisions 10–19; docs/process-api.md). */
export const processApiPaths: Record<string, JsonSchema> = {
  "/api/auth/login": {
    post: {
      operationId: "processLogin",
      tags: tags.auth,
      summary: "Process API login",
      requestBody: { required: true, content: json(toSchema(ZProcessLogin)) },
      responses: {
        "200": { description: "Access token", content: json({ type: "object", properties: { access_token: { type: "string" } }, required: ["access_token"] }) },
        "400": badRequest,
        "404": plain("not found", "Credentials missing or wrong"),
      },
    },
  },
  "/api/signature_processes": {
    put: {
      operationId: "createProcess",
      tags: tags.processes,
      summary: "Create a signature process",
      security: jwt,
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: multipartWithFiles(ZCreateProcessFields, { pdfFiles: { description: "A PDF to sign; repeat the part for several files (file index = order)", required: true, repeated: true } }),
            encoding: { pdfFiles: { contentType: "application/pdf" }, signers: jsonPart, labels: jsonPart, readChallenges: jsonPart },
          },
        },
      },
      responses: {
        "201": { description: "Created", content: json(ref("CreatedProcess")) },
        "400": badRequest,
        ...guarded,
        "413": plain("payload too large", "A file over the upload limit"),
        "415": plain("bad request", "The body is not multipart/form-data"),
      },
    },
    post: {
      operationId: "modifyProcess",
      tags: tags.processes,
      summary: "Modify a process (description, signers)",
      security: jwt,
      requestBody: formBody(ZModifyProcess, ["signers"]),
      responses: { "200": plain("ok", "Modified"), "400": badRequest, ...guarded, "403": plain("forbidden", "The state of the process or the credential's permissions do not allow it"), "404": plain("not found", "No such process") },
    },
    get: {
      operationId: "listProcesses",
      tags: tags.processes,
      summary: "List processes, newest first",
      security: jwt,
      parameters: queryParameters(ZListProcessesQuery, ["last_item"]),
      responses: {
        "200": { description: "Complete result (`last_item: null`)", content: json(ref("ProcessPage")) },
        "206": { description: "Partial result: send `last_item` back to continue", content: json(ref("ProcessPage")) },
        "400": badRequest,
        ...guarded,
        "404": plain("not found", "No process matches"),
      },
    },
    delete: {
      operationId: "rejectProcesses",
      tags: tags.processes,
      summary: "Reject processes",
      description: "`process_id_list` is a JSON array of ids (a single id is also accepted). A list answers 200 with the ids that failed; a single id that fails answers 403 or 404.",
      security: jwt,
      requestBody: formBody(ZRejectProcesses, ["process_id_list"]),
      responses: {
        "200": { description: "Processed", content: json(ref("RejectAnswer")) },
        "400": badRequest,
        ...guarded,
        "403": plain("forbidden", "The state of the process or the credential's permissions do not allow it"),
        "404": plain("not found", "No such process"),
      },
    },
  },
  "/api/notify": {
    post: {
      operationId: "notifyProcess",
      tags: tags.processes,
      summary: "Issue new signing links and notify the signers",
      security: jwt,
      requestBody: formBody(ZNotifyProcess),
      responses: {
        "200": {
          description: "The new link as text (shared link mode; `approvalPending` while awaiting approval), or one link per signer as JSON (per-signer mode)",
          content: { "text/plain": { schema: { type: "string" } }, ...json(toSchema(ZSigningLinks)) },
        },
        "400": badRequest,
        ...guarded,
        "404": plain("not found", "No such process"),
      },
    },
  },
  "/api/identity_registry": {
    put: {
      operationId: "importIdentityRegistry",
      tags: tags.processes,
      summary: "Import names into the organization's identity registry (our extension)",
      description:
        "CSV body with the header `nat,doc_id,given_name,family_name` (UTF-8, up to 10,000 rows). The names are proposed to the signer on the identification step; the signer confirms them. One bad row refuses the file (X-Error-Detail names the line). See docs/signer-pages.md.",
      "x-firmaviva-extension": true,
      security: jwt,
      requestBody: { required: true, content: { "text/csv": { schema: { type: "string" } } } },
      responses: { "200": { description: "`{imported}`", content: json({ type: "object", properties: { imported: { type: "integer" } }, required: ["imported"] }) }, "400": badRequest, ...guarded },
    },
  },
  "/api/selfies/{signerId}": {
    get: {
      operationId: "readSelfie",
      tags: tags.processes,
      summary: "The selfie behind `sign_data.facial.selfie` (signed link, 120 s; credential with biometrics:read)",
      "x-firmaviva-extension": true,
      security: jwt,
      parameters: [
        { name: "signerId", in: "path", required: true, schema: { type: "string", format: "uuid" } },
        { name: "try", in: "query", required: true, schema: { type: "string" } },
        { name: "expires", in: "query", required: true, schema: { type: "integer" } },
        { name: "signature", in: "query", required: true, schema: { type: "string" } },
      ],
      responses: {
        "200": { description: "The decrypted selfie", content: { "image/jpeg": { schema: { type: "string", format: "binary" } } } },
        ...guarded,
        "404": plain("not found", "Unknown, forged, or another organization's link"),
        "410": plain("gone", "The link expired: list the process again for a fresh one"),
      },
    },
  },
  "/api/labels": {
    get: {
      operationId: "listLabels",
      tags: tags.labels,
      summary: "List the organization's labels, by name descending",
      security: jwt,
      parameters: queryParameters(ZListLabelsQuery, ["last_item"]),
      responses: {
        "200": { description: "Complete result", content: json(ref("LabelPage")) },
        "206": { description: "Partial result: send `last_item` back to continue", content: json(ref("LabelPage")) },
        "400": badRequest,
        ...guarded,
      },
    },
    post: {
      operationId: "saveLabel",
      tags: tags.labels,
      summary: "Create a label (idempotent)",
      security: jwt,
      requestBody: formBody(ZLabelBody),
      responses: { "200": plain("ok", "Saved"), "400": badRequest, ...guarded },
    },
    delete: {
      operationId: "deleteLabel",
      tags: tags.labels,
      summary: "Delete one of the caller's labels",
      security: jwt,
      requestBody: formBody(ZLabelBody),
      responses: { "200": plain("ok", "Deleted"), "400": badRequest, ...guarded },
    },
  },
  "/api/documents/{id}": {
    get: {
      operationId: "downloadProcessDocument",
      tags: tags.processes,
      summary: "Download a process document (the signed `url` of list records and callback payloads)",
      description: "The link is signed and valid 120 s; it serves the latest signed revision.",
      security: [],
      parameters: [
        { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
        { name: "expires", in: "query", required: true, schema: { type: "integer" }, description: "Epoch seconds" },
        { name: "signature", in: "query", required: true, schema: { type: "string" } },
      ],
      responses: { "200": { description: "The PDF", content: { "application/pdf": { schema: binary } } }, "404": plain("not found", "Invalid, expired or unknown link") },
    },
  },
};

/** The callback (decision 16), sent to the process's urlCallback when it is signed, rejected or expires. */
export const processApiWebhooks = {
  processConcluded: {
    post: {
      operationId: "processCallback",
      tags: tags.processes,
      summary: "Process payload POSTed to urlCallback when the process concludes",
      description: "Dates are epoch seconds; document links live 120 s. Any 2xx is delivered; anything else is retried with backoff (at most 10 tries over about a day).",
      parameters: [
        { name: "X-Signature", in: "header", required: true, description: "`sha256=<hex HMAC-SHA256 of the exact body with the organization's callback secret>`", schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" } },
        { name: "X-Firmaviva-Event", in: "header", required: true, schema: { type: "string", enum: ["process.signed", "process.rejected", "process.expired"] } },
      ],
      requestBody: { required: true, content: json(ref("CallbackPayload")) },
      responses: { "2XX": { description: "Delivered" }, default: { description: "Not delivered: retried later" } },
    },
  },
};
