import { test, expect, unique, signInAs, ADMIN } from "../fixtures/dashboard";
import { login, signer, TINY_PDF } from "../fixtures/process-api-client";
import { payloadOf, propNear, seedOrganizationB, withIdsSwapped, type OrgB } from "../fixtures/other-organization";
import { ProcessesPage } from "../pages/processes-page";
import { ProcessDetailPage } from "../pages/process-detail-page";
import { LabelsPage } from "../pages/labels-page";
import { CertificatesPage } from "../pages/certificates-page";
import { ApiAccessPage } from "../pages/api-access-page";
import { OrganizationPage } from "../pages/organization-page";

/**
 * Issue 8, dashboard half: a staff user of organization A (demo.local, signed in as its owner) tries
 * every dashboard page and action on organization B's objects. Pages answer "not found" or show
 * nothing of B; actions fed B's ids answer "No encontrado." and leave B untouched.
 * (The process-API half is e2e/api/isolation.test.ts.)
 */


let b: OrgB;

/** The server of playwright.config.ts (set in beforeAll, where the baseURL fixture is not available). */
let base = "";

/** B's process as B's own credential sees it: untouched by anything A tried. */
async function expectBProcessUntouched() {
  const response = await b.api.list({ process_id: b.process.id });
  expect(response.status).toBe(200);
  const [mine] = (await response.json()).signatureProcesses;
  expect(mine.status).toBe("pending");
  expect(mine.description).toBe(b.process.description);
  expect(mine.labels).toEqual([b.label]);
  const detail = new ProcessDetailPage(b.page);
  await detail.open(b.process.id);
  await expect(detail.status()).toHaveAttribute("data-status", "pending");
  await expect(detail.timeline().locator('[data-kind="links_issued"]')).toHaveCount(1);
  await expect(detail.timeline().locator('[data-kind="callback_requeued"]')).toHaveCount(1);
  await expect(detail.callbackLog().locator("tbody tr")).toHaveCount(1);
}

test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  base = testInfo.project.use.baseURL!;
  b = await seedOrganizationB(browser, base);
});

test.afterAll(async () => {
  await b?.context.close();
});

test("A's lists, filters, labels, certificates, audit, API access and staff pages show nothing of B", async ({ adminPage: page }) => {
  const pages = ["/processes?limit=100", "/labels?limit=100", "/certificates", "/audit", "/api-access", "/organization", "/approvals", "/processes/new"];
  for (const path of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByTestId("signed-in-as")).toContainText(ADMIN.email);
    const html = await page.content();
    expect(html, path).not.toContain(b.token);
    expect(html, path).not.toContain(b.process.id);
    for (const id of [...b.process.documentIds, ...b.process.signerIds, b.holder.id, b.credential.id, b.staff.id]) expect(html, path).not.toContain(id);
  }

  const list = new ProcessesPage(page);
  await list.open();
  await list.filter({ label: b.label });
  await expect(page.getByTestId("processes-empty")).toBeVisible();
  for (const docId of b.process.signerDocIds) {
    await list.open();
    await list.filter({ docId });
    await expect(page.locator(`[data-process-id="${b.process.id}"]`)).toHaveCount(0);
    expect(await page.content()).not.toContain(b.token);
  }
  // the same filters straight in the URL, and a paging cursor naming B's process
  for (const query of [{ label: b.label }, { doc_id: b.process.signerDocIds[0] }, { status: "pending", label: b.label }] as Record<string, string>[]) {
    await list.open(query);
    await expect(page.getByTestId("processes-empty")).toBeVisible();
  }
  const cursor = Buffer.from(JSON.stringify({ processId: b.process.id, date: new Date(Date.now() + 60_000).toISOString() })).toString("base64url");
  await page.goto(`/processes?after=${cursor}&limit=100`);
  expect(await page.content()).not.toContain(b.token);

  // B's own staff see B's objects: the names above really exist
  await b.page.goto("/processes?limit=100");
  await expect(b.page.locator(`[data-process-id="${b.process.id}"]`)).toHaveCount(1);
  await new LabelsPage(b.page).open("?limit=100");
  await expect(new LabelsPage(b.page).row(b.label)).toHaveCount(1);
  await b.page.goto("/audit");
  await expect(b.page.getByTestId("audit-row").filter({ hasText: b.process.id })).not.toHaveCount(0);
});

test("B's process detail, callback log, documents and selfies are not found for A", async ({ adminPage: page }) => {
  const response = await page.goto(`/processes/${b.process.id}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página no encontrada" })).toBeVisible();
  const html = await page.content();
  expect(html).not.toContain(b.token);
  expect(html).not.toContain(b.process.signerDocIds[0]);
  expect(html).not.toContain("callback-log");

  for (const documentId of b.process.documentIds) {
    for (const version of ["original", "current"]) {
      const path = `/api/dashboard/documents/${documentId}?version=${version}`;
      const mine = await b.page.request.get(path);
      expect(mine.status(), `B's owner downloads ${path}`).toBe(200);
      expect((await mine.body()).subarray(0, 5).toString()).toBe("%PDF-");
      const theirs = await page.request.get(path);
      expect(theirs.status(), path).toBe(404);
      expect((await theirs.body()).includes("%PDF-")).toBe(false);
    }
    // the signed-link route does not take the dashboard session instead of a signature
    const unsigned = await page.request.get(`/api/documents/${documentId}`);
    expect(unsigned.status()).not.toBe(200);
    expect((await unsigned.body()).includes("%PDF-")).toBe(false);
  }
  // B's signers have no selfie yet (no facial check ran), so this shows the route answers 404 without
  // a body for B's ids; the organization filter itself is in readSignerSelfie
  for (const signerId of b.process.signerIds) {
    const selfie = await page.request.get(`/api/dashboard/selfies/${signerId}`);
    expect(selfie.status()).toBe(404);
    expect(selfie.headers()["content-type"]).not.toContain("image/");
  }
});

test("notify, reject and callback redelivery from A's own process page, with B's id swapped in, answer not found", async ({ adminPage: page, api }) => {
  const mine = await api.seedProcess({ urlCallback: "http://127.0.0.1:9/callback-a" });
  const detail = new ProcessDetailPage(page);
  await detail.open(mine);
  const swap: [string, string][] = [[mine, b.process.id]];

  await withIdsSwapped(page, swap, () => page.getByRole("button", { name: "Notificar de nuevo" }).click());
  await expect(page.getByRole("status")).toHaveText("No encontrado.");

  await detail.open(mine);
  await withIdsSwapped(page, swap, async () => {
    await page.getByRole("button", { name: "Rechazar proceso" }).click();
    await page.getByRole("dialog", { name: "¿Rechazar este proceso?" }).getByRole("button", { name: "Sí, rechazar" }).click();
  });
  await expect(page.getByRole("status")).toHaveText("No encontrado.");

  await detail.open(mine);
  await withIdsSwapped(page, swap, () => detail.callbackLog().getByRole("button", { name: "Reenviar callback" }).click());
  await expect(detail.callbackLog().getByRole("status")).toHaveText("No encontrado.");

  // A's own process was not the one acted on either (the swap really happened)
  await page.reload();
  await expect(detail.status()).toHaveAttribute("data-status", "pending");
  await expect(detail.timeline().locator('[data-kind="links_issued"]')).toHaveCount(0);
  await expect(detail.callbackLog().locator("tbody tr")).toHaveCount(0);
  await expectBProcessUntouched();
});

test("modifying from A's own process page, with B's process and signer swapped in, answers not found", async ({ adminPage: page, api }) => {
  const [first, second] = [signer(), signer()];
  const mine = await api.seedProcess({ signers: [first, second] });
  const detail = new ProcessDetailPage(page);
  await detail.open(mine);
  const notFound = "El proceso no existe en su organización.";

  await detail.modifyCard().getByLabel("Descripción").fill(`cambiada por A ${b.token}`);
  await withIdsSwapped(page, [[mine, b.process.id]], () => detail.modifyCard().getByRole("button", { name: "Guardar descripción" }).click());
  await expect(detail.modifyCard().getByRole("status")).toHaveText(notFound);

  // B's signer too, so that a missing organization scope would remove someone real
  const swap: [string, string][] = [[mine, b.process.id], [first.doc_id, b.process.signerDocIds[0]]];
  await withIdsSwapped(page, swap, async () => {
    await detail.signerRow(`PER:${first.doc_id}`).getByRole("button", { name: "Quitar" }).click();
    await page.getByRole("dialog", { name: `¿Quitar a PER:${first.doc_id} del proceso?` }).getByRole("button", { name: "Sí, quitar" }).click();
  });
  await expect(detail.signerOutcome()).toHaveText(notFound);

  await page.reload();
  await expect(detail.signerRows()).toHaveCount(2);
  await expect(detail.timeline().locator('[data-kind="modified"]')).toHaveCount(0);
  const listed = await b.api.list({ process_id: b.process.id });
  expect((await listed.json()).signatureProcesses[0].signers).toHaveLength(b.process.signerDocIds.length);
  await expectBProcessUntouched();
});

test("approving B's process from A's approvals inbox answers not found", async ({ adminPage: page, api }) => {
  const organization = new OrganizationPage(page);
  await organization.open();
  await organization.setRequireApproval(true);
  let mine: string | undefined;
  try {
    mine = await api.seedProcess();
    await page.goto("/approvals");
    const row = page.getByTestId("approval-row").filter({ has: page.locator(`a[href$="${encodeURIComponent(mine)}"]`) });
    await withIdsSwapped(page, [[mine, b.process.id]], () => row.getByRole("button", { name: "Aprobar" }).click());
    await expect(row.getByRole("status")).toHaveText("No encontrado.");
    await page.reload();
    await expect(row).toHaveCount(1);
  } finally {
    await organization.open();
    await organization.setRequireApproval(false);
    if (mine) await api.reject([mine]);
  }
  await expectBProcessUntouched();
});

test("A cannot delete or rename B's label, nor put it on a process of A", async ({ adminPage: page, api }) => {
  const mine = unique("zz-a");
  await api.seedLabel(mine);
  const labels = new LabelsPage(page);
  await labels.open("?limit=100");
  // labels belong to an owner: B's label is owned by B's credential, which created it
  const swap: [string, string][] = [[ADMIN.email, b.credential.clientname], [mine, b.label]];

  await withIdsSwapped(page, swap, () => labels.delete(mine));
  await expect(page.getByText(`la etiqueta ${b.label} no existe`)).toBeVisible();

  const renamed = unique("zz-robada");
  await labels.open("?limit=100");
  await withIdsSwapped(page, swap, () => labels.rename(mine, renamed));
  await expect(page.getByText(`la etiqueta ${b.label} no existe`)).toBeVisible();

  await labels.open("?limit=100");
  await expect(labels.row(mine)).toHaveCount(1);
  await expect(labels.row(renamed)).toHaveCount(0);
  const bLabels = (await (await b.api.labels({ limit: "100" })).json()).labels as { label: string; usr_id: string }[];
  expect(bLabels).toContainEqual({ label: b.label, usr_id: b.credential.clientname });
  expect(bLabels.map((l) => l.label)).not.toContain(renamed);

  // the dashboard's own upload route refuses B's label like the process API does
  const upload = await page.request.put("/api/dashboard/processes", {
    multipart: {
      signers: JSON.stringify([signer()]),
      labels: JSON.stringify([b.label]),
      pdfFiles: { name: "contrato.pdf", mimeType: "application/pdf", buffer: Buffer.from(TINY_PDF()) },
    },
  });
  expect(upload.status()).toBe(400);
  expect(await upload.text()).toContain("labels");
});

test("A cannot revoke B's certificate holder nor sign with it", async ({ adminPage: page }) => {
  const certificates = new CertificatesPage(page);
  const mine = unique("titular-a");
  await certificates.open();
  await certificates.enrollBuiltIn({ username: mine, password: "Holder-Password-A-1", pin: "1357", names: "Ana", lastNames: "Pérez", personId: "45678912" });
  const aHolderId = propNear(await payloadOf(page, "/certificates"), "holderId", ["username", mine]);

  await withIdsSwapped(page, [[aHolderId, b.holder.id]], async () => {
    await certificates.holder(mine).getByRole("button", { name: "Revocar" }).click();
    await page.getByRole("dialog", { name: `¿Revocar ${mine}?` }).getByRole("button", { name: "Revocar" }).click();
  });
  await expect(page.getByText("el titular no existe o ya está revocado")).toBeVisible();
  await certificates.open();
  await expect(certificates.holder(mine)).toContainText("Activa");

  // digital signing with B's holder name, password and PIN: refused for A, works for B
  const form = {
    pdf_file: { name: "a.pdf", mimeType: "application/pdf", buffer: Buffer.from(TINY_PDF()) },
    sign_type: "digital",
    sign_username: b.holder.username,
    sign_password: b.holder.password,
    sign_pin: b.holder.pin,
  };
  const theirs = await page.request.post("/api/dashboard/stamp/sign", { multipart: form });
  expect(theirs.status()).toBe(400);
  expect(await theirs.text()).toContain("Credenciales de firma digital inválidas");
  const own = await b.page.request.post("/api/dashboard/stamp/sign", { multipart: form });
  expect(own.status(), await own.text()).toBe(200);

  const bCertificates = new CertificatesPage(b.page);
  await bCertificates.open();
  await expect(bCertificates.holder(b.holder.username)).toContainText("Activa");
});

test("A cannot revoke or re-role B's API credential, nor remove B's staff", async ({ adminPage: page, browser }) => {
  const access = new ApiAccessPage(page);
  const clientname = `${unique("integracion-a")}@demo.local`;
  await access.open();
  await access.createCredential(clientname, "operator");
  const aCredentialId = propNear(await payloadOf(page, "/api-access"), "credentialId", ["clientname", clientname]);
  const swapCredential: [string, string][] = [[aCredentialId, b.credential.id]];

  await withIdsSwapped(page, swapCredential, async () => {
    await access.row(clientname).getByLabel(`Rol ${clientname}`).selectOption("viewer");
  });
  await expect(access.row(clientname).getByRole("status")).toHaveText("la credencial no existe o está revocada");
  await withIdsSwapped(page, swapCredential, async () => {
    await access.row(clientname).getByRole("button", { name: "Revocar" }).click();
    await page.getByRole("dialog", { name: `¿Revocar ${clientname}?` }).getByRole("button", { name: "Revocar" }).click();
  });
  await expect(access.row(clientname).getByRole("status")).toHaveText("la credencial no existe o ya está revocada");
  await access.open();
  await expect(access.row(clientname)).toContainText("Operador");
  await expect(access.row(clientname)).not.toContainText("Revocada");

  // B's credential still logs in, with its role unchanged
  const token = await login(base, b.domain, b.credential.clientname, b.credential.secret);
  expect(token).toBeTruthy();
  const bAccess = new ApiAccessPage(b.page);
  await bAccess.open();
  await expect(bAccess.row(b.credential.clientname)).not.toContainText("Revocada");
  await expect(bAccess.row(b.credential.clientname).getByLabel(`Rol ${b.credential.clientname}`)).toHaveValue("admin");

  const organization = new OrganizationPage(page);
  const staff = { email: `${unique("lector-a")}@demo.local`, password: "Viewer-Password-A-1" };
  await organization.open();
  await organization.addStaff(staff.email, staff.password, "viewer");
  const aStaffId = propNear(await payloadOf(page, "/organization"), "userId", ["email", staff.email]);
  await withIdsSwapped(page, [[aStaffId, b.staff.id]], async () => {
    await organization.staffRow(staff.email).getByRole("button", { name: "Quitar acceso" }).click();
    await page.getByRole("dialog", { name: `¿Quitar el acceso de ${staff.email}?` }).getByRole("button", { name: "Quitar acceso" }).click();
  });
  await expect(page.getByText("el usuario no existe o ya fue quitado")).toBeVisible();
  await organization.open();
  await expect(organization.staffRow(staff.email)).not.toContainText("Deshabilitado");

  // B's staff member can still sign in
  const context = await browser.newContext();
  await signInAs(await context.newPage(), b.staff.email, b.staff.password);
  await context.close();
  await organization.removeStaff(staff.email);
});
