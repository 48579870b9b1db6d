import { randomUUID } from "node:crypto";
import { ConfigError, type AppConfig } from "@/lib/config";
import type { TokenKeyMaker } from "@/lib/pki/issued-certificate";
import { openPkcs11Token, TokenSetupError, type Pkcs11Token } from "@/lib/pki/pkcs11-token";
import { registerTokenSigning, type TokenKeyReference } from "@/lib/pki/signing-key";
import { forgetProcessSingleton, processSingleton, processSlot } from "@/lib/process-wide/singleton";

const TOKEN = "firmaviva.platform-token";
type OpeningToken = { token?: Pkcs11Token; opening: Promise<Pkcs11Token> };

/**
 * Opens the PKCS#11 token named by PKCS11_MODULE / PKCS11_TOKEN_LABEL / PKCS11_PIN once per process,
 * at start (lib/runtime/start-server.ts): a bad setting stops the start with a message naming it.
 * From then on every signature with a token key in this process goes to it.
 */
export async function openPlatformToken(config: AppConfig): Promise<Pkcs11Token | undefined> {
  const modulePath = config.PKCS11_MODULE;
  if (!modulePath) return undefined;
  return processSingleton<OpeningToken>(TOKEN, () => {
    const entry: OpeningToken = {
      opening: openPkcs11Token({ modulePath, tokenLabel: config.PKCS11_TOKEN_LABEL!, pin: config.PKCS11_PIN! }).then(
        (token) => {
          entry.token = token;
          registerTokenSigning((label, data) => token.sign(label, data));
          return token;
        },
        (error: unknown) => {
          forgetProcessSingleton(TOKEN);
          throw error instanceof TokenSetupError ? new ConfigError(error.message) : error;
        },
      ),
    };
    return entry;
  }).opening;
}

/** The token opened at start, or none when PKCS11_MODULE is unset. */
export function platformToken(config: AppConfig): Pkcs11Token | undefined {
  if (!config.PKCS11_MODULE) return undefined;
  const token = processSlot<OpeningToken>(TOKEN).get()?.token;
  if (!token) throw new ConfigError("PKCS11_MODULE: the PKCS#11 token is not open yet (it opens when the server starts)");
  return token;
}

/** New keys for a role get a label that says what they are for and cannot collide. */
export function tokenKeyMaker(token: Pkcs11Token, role: string): TokenKeyMaker {
  return async () => token.generateKey(`firmaviva-${role}-${randomUUID()}`);
}

/** The token key a certificate row names; a token that lacks it stops the caller with the setting to check. */
export function tokenKeyOfRow(token: Pkcs11Token | undefined, row: { purpose: string; privateKeyLabel: string }): TokenKeyReference {
  if (!token) {
    throw new ConfigError(`PKCS11_MODULE: the ${row.purpose} key is in a PKCS#11 token (label ${row.privateKeyLabel}); set PKCS11_MODULE, PKCS11_TOKEN_LABEL and PKCS11_PIN`);
  }
  const key = token.findKey(row.privateKeyLabel);
  if (!key) throw new ConfigError(`PKCS11_TOKEN_LABEL: the token "${token.tokenLabel}" has no key labelled ${row.privateKeyLabel} (the ${row.purpose} key)`);
  return key;
}
