import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const SOFTHSM_MODULE = "/usr/lib/softhsm/libsofthsm2.so";

export function softHsmInstalled(): boolean {
  return fs.existsSync(SOFTHSM_MODULE) && fs.existsSync("/usr/bin/softhsm2-util");
}

export type SoftHsmToken = {
  /** SOFTHSM2_CONF must be in the environment of whatever process opens the token. */
  env: { SOFTHSM2_CONF: string; PKCS11_MODULE: string; PKCS11_TOKEN_LABEL: string; PKCS11_PIN: string };
  directory: string;
  remove(): void;
};

/** A SoftHSM2 token in a fresh temporary directory: its own config file, so no run sees another's keys. */
export function createSoftHsmToken({ label = "firmaviva-test", pin = "1234-5678" }: { label?: string; pin?: string } = {}): SoftHsmToken {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "firmaviva-softhsm-"));
  const tokens = path.join(directory, "tokens");
  fs.mkdirSync(tokens);
  const conf = path.join(directory, "softhsm2.conf");
  fs.writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  const env = { SOFTHSM2_CONF: conf };
  execFileSync("softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", `so-${pin}`], {
    env: { ...process.env, ...env },
    stdio: "pipe",
  });
  return {
    env: { ...env, PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: label, PKCS11_PIN: pin },
    directory,
    remove: () => fs.rmSync(directory, { recursive: true, force: true }),
  };
}
