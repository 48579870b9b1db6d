import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { startPostgresCluster } from "../fixtures/postgres";

const METRICS_TOKEN = `metrics-${crypto.randomBytes(16).toString("hex")}`;
const SECRET_KEY = `secret-${crypto.randomBytes(24).toString("hex")}`;
const WRONG_PASSWORD = `Wrong-${crypto.randomBytes(8).toString("hex")}`;
const PERSON_ID = String(20_000_000 + crypto.randomInt(70_000_000));
/** Personal data of the failures below (issue 37): each unique, so a hit in the log is a leak, not a coincidence. */
const tag = crypto.randomBytes(4).toString("hex").replace(/\d/g, (d) => "ghijklmnop"[Number(d)]);
const RACE_NAMES = `Eulalia${tag}`;
const RACE_LAST_NAMES = `Carhuamaca${tag}`;
const RACE_PERSON_ID = String(10_000_000 + crypto.randomInt(9_000_000));
const CLIENT_IP = `203.0.113.${1 + crypto.randomInt(250)}`;
const BIRTH_DATE = `19${10 + crypto.randomInt(80)}-0${1 + crypto.randomInt(9)}-1${crypto.randomInt(10)}`;
const WRONG_DOC_ID = String(90_000_000 + crypto.randomInt(9_000_000));
const BAD_DOC_ID = `${crypto.randomInt(1_000_000)}x${tag}`;
/** A drizzle query error's message: "Failed query: <sql>\nparams: <values>". */
const SQL_IN_LOG = /Failed query|params: |insert into "|select "[a-z_]+"\.|update "[a-z_]+" set/i;
const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const portrait = fixture("images/portrait-413x531.jpg");

let server: TestServer;
let stamp: StampApiClient;
/** Every secret, token, ID number and picture this file hands the server: none may reach its log. */
const handedToServer: Record<string, string> = {
  SECRET_KEY,
  METRICS_TOKEN,
  ADMIN_PASSWORD,
  ADMIN_API_SECRET,
  WRONG_PASSWORD,
  PERSON_ID,
  "portrait (base64)": Buffer.from(portrait.subarray(0, 48)).toString("base64"),
  "names in a constraint race": RACE_NAMES,
  "last names in a constraint race": RACE_LAST_NAMES,
  "DNI in a constraint race": RACE_PERSON_ID,
  "the client's address": CLIENT_IP,
  "a birth date": BIRTH_DATE,
  "a wrong DNI": WRONG_DOC_ID,
  "a malformed DNI": BAD_DOC_ID,
};

const scrape = (token: string | null = METRICS_TOKEN, base = server.baseUrl) =>
  fetch(`${base}/api/metrics`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  // behind a proxy (the test), so X-Forwarded-For is the client's address the server records as evidence
  server = await startTestServer({ env: { METRICS_TOKEN, SECRET_KEY, LOG_LEVEL: "debug", TRUSTED_PROXIES: "127.0.0.1/32, ::1" } });
  stamp = new StampApiClient(server.baseUrl);
  handedToServer["stamp API token"] = await stamp.login("v2");
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("request ids", () => {
  it("a sane incoming X-Request-Id comes back and is on the request's log line; anything else is replaced", async () => {
    const kept = await fetch(`${server.baseUrl}/api/health/live`, { headers: { "x-request-id": "integrator-trace-0042" } });
    expect(kept.headers.get("x-request-id")).toBe("integrator-trace-0042");
    for (const offered of ["x".repeat(65), "two words", "id;drop"]) {
      const answer = await fetch(`${server.baseUrl}/api/health/live`, { headers: { "x-request-id": offered } });
      expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const line = await waitForLogLine((entry) => entry.requestId === "integrator-trace-0042");
    expect(line).toMatchObject({ level: "info", message: "request", route: "/api/health/live", status: "200" });
  });

  it("every error answer carries it: stamp API (header; its body is fixed), process API (header), our JSON (header and body)", async () => {
    const stampError = await fetch(`${server.baseUrl}/api/v2/signPDF`, { method: "POST", headers: { authorization: "Bearer nope" } });
    expect(stampError.status).toBe(401);
    expect(Object.keys(await stampError.json()).sort()).toEqual(["message", "success"]);
    expect(stampError.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const processError = await fetch(`${server.baseUrl}/api/signature_processes`, { headers: { authorization: "jwt-bearer nope", "x-request-id": "proc-err-1" } });
    expect(processError.status).toBe(401);
    expect(processError.headers.get("x-request-id")).toBe("proc-err-1");

    const signerError = await fetch(`${server.baseUrl}/api/signer/no-such-link/sign`, { method: "POST", headers: { "x-request-id": "signer-err-1" } });
    expect(signerError.status).toBeGreaterThanOrEqual(400);
    expect(signerError.headers.get("x-request-id")).toBe("signer-err-1");
    expect((await signerError.json()).requestId).toBe("signer-err-1");
    const logged = await waitForLogLine((entry) => entry.requestId === "signer-err-1");
    expect(logged.route).toBe("/api/signer/:id/sign");
  });
});

describe("health", () => {
  it("live and ready answer; /api/health keeps its answer", async () => {
    expect(await (await fetch(`${server.baseUrl}/api/health/live`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.baseUrl}/api/health/ready`);
    expect(ready.status, await ready.clone().text()).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", checks: { database: "ok", blobs: "ok", cpuWorkers: "ok", faceWorkers: "idle" } });
    expect(await (await fetch(`${server.baseUrl}/api/health`)).json()).toEqual({ status: "ok", database: "ok" });
  });
});

describe("metrics", () => {
  it("refuses a missing or wrong token", async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape(METRICS_TOKEN.slice(0, -1) + "x")).status).toBe(401);
    expect((await scrape(METRICS_TOKEN + "x")).status).toBe(401);
  });

  it("counts what happened: signatures by kind and level, time-stamp tokens, logins by outcome, pool tasks, HTTP durations, outbox", async () => {
    const signed = await stamp.signPdf({ names: "Ana", last_names: "Métrica", person_id: PERSON_ID, nationality: "PER", person_id_type: "DNI" }, { pdf: contract, image: portrait });
    expect(signed.status).toBe(200);
    const refused = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: WRONG_PASSWORD }),
    });
    expect(refused.status).toBe(404);

    // a process with one signer, signed through its link: names, ID number, cookie and link all pass through the server
    const jwt = await login(server.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET);
    handedToServer["process API token"] = jwt;
    const person = signer({ doc_id: String(Number(PERSON_ID) + 1), signChallenges: [], contactInfo: undefined });
    handedToServer["signer doc_id"] = person.doc_id;
    const created = await processApi(server.baseUrl, jwt).create({ signers: [person], description: "Observabilidad" });
    expect(created.status).toBe(201);
    const { id, msg: link } = await created.json();
    const flow = signerHttp(server.baseUrl, link);
    handedToServer["signer link token"] = flow.token;
    expect((await flow.identify(person.doc_id)).status).toBe(200);
    handedToServer["signer session cookie"] = flow.cookie().split("=").slice(1).join("=");
    expect((await flow.confirmNames("Zoraida", "Quillahuamán")).status).toBe(200);
    handedToServer["signer family name"] = "Quillahuamán";
    const [process] = (await (await processApi(server.baseUrl, jwt).list({ process_id: id })).json()).signatureProcesses;
    await flow.showEveryPage(process.documents);
    expect((await flow.sign()).status).toBe(200);

    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    const text = await answer.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    expect(value(/^firmaviva_signatures_total\{kind="stamp",pades_level="(?:B-[A-Z-]+)"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^firmaviva_signatures_total\{kind="process",pades_level="[^"]+"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^firmaviva_time_stamp_tokens_total (\d+)/m)).toBeGreaterThanOrEqual(2);
    expect(value(/^firmaviva_login_attempts_total\{outcome="failed"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^firmaviva_login_attempts_total\{outcome="succeeded"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^firmaviva_pool_task_duration_seconds_count\{pool="cpu",task="plan-and-produce-stamped-pdf",outcome="ok"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^firmaviva_http_request_duration_seconds_count\{route="\/api\/v2\/signPDF",method="POST",status="200"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^firmaviva_http_request_duration_seconds_count\{route="\/api\/signer\/:id\/sign",method="POST",status="200"\} \d+/m);
    for (const name of ['firmaviva_outbox_jobs{status="pending"}', 'firmaviva_outbox_jobs{status="dead"}', "firmaviva_outbox_oldest_pending_age_seconds", 'firmaviva_pool_queue_length{pool="cpu"}', 'firmaviva_pool_queue_length{pool="face"}']) {
      expect(text).toContain(`${name} `);
    }
    // a test server verifies every stamp output in full after answering: the level derived per request agreed
    expect(await waitForMetric(/^firmaviva_level_audits_total\{kind="stamp",outcome="agrees"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    // and every completed process: the file level derived from what its last signature built agreed
    expect(await waitForMetric(/^firmaviva_level_audits_total\{kind="process",outcome="agrees"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(await (await scrape()).text()).not.toMatch(/^firmaviva_level_disagreements_total\{/m);
    // labels never carry a link token or an ID number
    expect(text).not.toContain(flow.token);
    expect(text).not.toContain(PERSON_ID);
  }, 180_000);
});

describe("without METRICS_TOKEN", () => {
  it("the endpoint does not exist", async () => {
    const plain = await startTestServer();
    try {
      expect((await scrape(METRICS_TOKEN, plain.baseUrl)).status).toBe(404);
      expect((await scrape(null, plain.baseUrl)).status).toBe(404);
    } finally {
      await plain.stop();
    }
  }, 180_000);
});

describe("failures, whose log lines name class, code and constraint, never the values (issue 37)", () => {
  const asClient = { "x-forwarded-for": CLIENT_IP };

  it("a unique-constraint race: 8 parallel signatures with one tx_token, carrying names, DNI and the client's address", async () => {
    const sign = () => {
      const form = new FormData();
      form.append("pdf_file", new Blob([contract as BlobPart], { type: "application/pdf" }), "documento.pdf");
      const fields = { names: RACE_NAMES, last_names: RACE_LAST_NAMES, person_id: RACE_PERSON_ID, nationality: "PER", person_id_type: "DNI", tx_token: `Race${tag}`.padEnd(20, "0") };
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return fetch(`${server.baseUrl}/api/v2/signPDF`, { method: "POST", headers: { authorization: `Bearer ${handedToServer["stamp API token"]}`, ...asClient }, body: form }).then(async (r) => (await r.arrayBuffer(), r.status));
    };
    const statuses = await Promise.all(Array.from({ length: 8 }, sign));
    expect(statuses.sort()).toEqual([200, ...Array(7).fill(409)]);
  }, 120_000);

  it("bad inputs: a malformed signer list with a birth date, a malformed DNI, a wrong DNI at a link", async () => {
    const jwt = await login(server.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET);
    const api = processApi(server.baseUrl, jwt);
    const malformed = await api.create({ signers: [{ ...signer({ doc_id: BAD_DOC_ID }), birthDate: BIRTH_DATE, names: RACE_NAMES }], description: "entrada mala" });
    expect(malformed.status).toBe(400);
    const form = new FormData();
    form.append("pdf_file", new Blob([contract as BlobPart], { type: "application/pdf" }), "documento.pdf");
    for (const [name, value] of Object.entries({ names: RACE_NAMES, last_names: RACE_LAST_NAMES, person_id: `${BAD_DOC_ID}!`, birth_date: BIRTH_DATE })) form.append(name, value);
    const badStamp = await fetch(`${server.baseUrl}/api/v2/signPDF`, { method: "POST", headers: { authorization: `Bearer ${handedToServer["stamp API token"]}`, ...asClient }, body: form });
    expect(badStamp.status).toBe(400);
    const created = await api.create({ signers: [signer({ signChallenges: [], contactInfo: undefined })], description: "DNI equivocado" });
    expect(created.status).toBe(201);
    const token = ((await created.json()).msg as string).split("/").pop();
    const wrong = await fetch(`${server.baseUrl}/api/signer/${token}/session`, { method: "POST", headers: { "content-type": "application/json", ...asClient }, body: JSON.stringify({ nat: "PER", docId: WRONG_DOC_ID }) });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ reason: "wrong_id" });
  }, 120_000);

  it("a database that is down: the answers are 5xx, the log names the failure's class and code, never the request's data", async () => {
    const cluster = await startPostgresCluster();
    const down = await startTestServer({ env: { DATABASE_URL: cluster.adminUrl, LOG_LEVEL: "debug", TRUSTED_PROXIES: "127.0.0.1/32, ::1" } });
    try {
      const stampApi = new StampApiClient(down.baseUrl);
      const token = await stampApi.login("v2");
      const created = await processApi(down.baseUrl, await login(down.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET)).create({ signers: [signer({ signChallenges: [], contactInfo: undefined })], description: "base caída" });
      expect(created.status).toBe(201);
      const link = ((await created.json()).msg as string).split("/").pop();
      cluster.stop();
      const form = new FormData();
      form.append("pdf_file", new Blob([contract as BlobPart], { type: "application/pdf" }), "documento.pdf");
      for (const [name, value] of Object.entries({ names: RACE_NAMES, last_names: RACE_LAST_NAMES, person_id: RACE_PERSON_ID, nationality: "PER" })) form.append(name, value);
      const answers = [
        await fetch(`${down.baseUrl}/api/v2/signPDF`, { method: "POST", headers: { authorization: `Bearer ${token}`, ...asClient }, body: form }),
        await fetch(`${down.baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", ...asClient }, body: JSON.stringify({ username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: ADMIN_API_SECRET }) }),
        await fetch(`${down.baseUrl}/api/signer/${link}/session`, { method: "POST", headers: { "content-type": "application/json", ...asClient }, body: JSON.stringify({ nat: "PER", docId: RACE_PERSON_ID }) }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBeGreaterThanOrEqual(500);
        expect(await answer.text()).not.toMatch(/ECONNREFUSED|postgres|127\.0\.0\.1/i);
      }
    } finally {
      await down.stop();
    }
    const lines = down.output().split("\n").filter((line) => line.startsWith("{"));
    const failures = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.level === "error");
    expect(failures.length).toBeGreaterThan(0);
    const output = down.output();
    expect([RACE_NAMES, RACE_LAST_NAMES, RACE_PERSON_ID, CLIENT_IP, ADMIN_API_SECRET, SECRET_KEY].filter((value) => output.includes(value))).toEqual([]);
    expect(output).not.toMatch(SQL_IN_LOG);
  }, 300_000);
});

describe("the server's log", () => {
  it("is JSON lines, and holds none of the secrets, tokens, ID numbers, names or pictures it was handed", async () => {
    await server.stop();
    const output = server.output();
    const lines = output.split("\n").filter((line) => line.startsWith("{"));
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(Object.keys(handedToServer).length).toBeGreaterThanOrEqual(11);
    const leaks = (log: string) => [
      ...Object.entries(handedToServer).filter(([, secret]) => secret && (log.includes(secret) || log.includes(encodeURIComponent(secret)))).map(([name]) => name),
      ...(/\/9j\/4|data:image|-----BEGIN [A-Z ]*PRIVATE KEY/.test(log) ? ["a picture or a private key"] : []),
    ];
    expect(leaks(output)).toEqual([]);
    // the failures above were logged (by class, code and constraint), and no query or its parameters with them
    expect(output).toMatch(/"status":"409"/);
    expect(output).not.toMatch(SQL_IN_LOG);
    // the counter-tests: the same scans see a secret, and a drizzle query error, that are there
    expect(leaks(`${output}\n${JSON.stringify({ level: "info", docId: handedToServer["signer doc_id"] })}`)).toEqual(["signer doc_id"]);
    expect(`Failed query: insert into "stamp_transactions" ("id") values ($1)\nparams: ${RACE_PERSON_ID}`).toMatch(SQL_IN_LOG);
  });
});

async function waitForMetric(pattern: RegExp): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const found = pattern.exec(await (await scrape()).text());
    if (found) return Number(found[1]);
    await new Promise((resolve) => setTimeout(resolve, 100)); // polling the metrics, not waiting for time to pass
  }
  throw new Error(`no metric ${pattern}`);
}

async function waitForLogLine(match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const line of server.output().split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (match(entry)) return entry;
    }
    await new Promise((resolve) => setTimeout(resolve, 50)); // polling the captured output, not waiting for time to pass
  }
  throw new Error("no such log line");
}
