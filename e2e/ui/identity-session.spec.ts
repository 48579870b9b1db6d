import { expect, test } from "../fixtures/browser-test";
import { fixturePath } from "../../test/fixtures-dir";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { uploadRegistryPhoto } from "../fixtures/signer-documents";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { SignerPage } from "../pages/signer-page";

// Issue 36: a proof belongs to the browser session that made it. The signer passes the facial check
// in one browser; another browser on the same link, with the (not secret) number, is asked for its
// own proof instead of reaching the documents to sign. Face models run per try: generous limits.
let token = "";

test.beforeAll(async ({ baseURL }) => {
  posesOf("A"); // made once, before any page waits on it
  token = await login(baseURL!, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET);
});

for (const [label, size] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`${label}: a second browser on the same link is asked for its own identity proof`, async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const person = signer();
    expect((await uploadRegistryPhoto(baseURL!, token, person, fixturePath("faces", "person-a-obama/a1-id-portrait-413x531.jpg"))).status).toBe(201);
    const created = await processApi(baseURL!, token).create({ signers: [person], description: "Una prueba por sesión" });
    expect(created.status).toBe(201);
    const link = ((await created.json()) as { msg: string }).msg;

    const genuine = await browser.newContext(size);
    await useScriptedCamera(genuine, posesOf("A"), "live");
    const first = new SignerPage(await genuine.newPage());
    await first.open(link);
    await first.identify(person.doc_id);
    await first.confirmNames({ given: "Ana", family: "Soto" });
    await first.expectFacialStep();
    await first.startCamera();
    expect(await first.runChallenge()).toMatchObject({ status: "passed" });
    await first.expectReadStep();

    // whoever else holds the link types the number: the facial step again, not the documents
    const other = await browser.newContext(size);
    const second = new SignerPage(await other.newPage());
    await second.open(link);
    await second.identify(person.doc_id);
    await second.expectFacialStep();
    await second.screenshot(`identity-session-second-browser-${label}`);
    // the genuine browser keeps its own proof
    await first.page.reload();
    await first.expectReadStep();
    await genuine.close();
    await other.close();
  });
}
