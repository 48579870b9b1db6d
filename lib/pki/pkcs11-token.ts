import { createHash, createPublicKey, randomBytes } from "node:crypto";
import type * as Pkcs11Module from "pkcs11js";
import { convertEcdsaRawToDer } from "@/lib/pki/ecdsa-signature-format";
import type { TokenKeyReference } from "@/lib/pki/signing-key";

export type Pkcs11Settings = { modulePath: string; tokenLabel: string; pin: string };

/** A token that cannot be used as configured; `setting` names the variable the operator must fix. */
export class TokenSetupError extends Error {
  constructor(
    readonly setting: "PKCS11_MODULE" | "PKCS11_TOKEN_LABEL" | "PKCS11_PIN",
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = "TokenSetupError";
  }
}

/** An open, logged-in session on the token that holds the platform keys. Every call is synchronous. */
export type Pkcs11Token = {
  tokenLabel: string;
  /** A new ECDSA P-256 pair in the token: private part sensitive and non-extractable. */
  generateKey(label: string): TokenKeyReference;
  findKey(label: string): TokenKeyReference | null;
  /** SHA-256 (computed here) signed by the token with CKM_ECDSA; the value as DER Ecdsa-Sig-Value. */
  sign(label: string, data: Uint8Array): Uint8Array;
};

// id-ecPublicKey's named curve prime256v1 (RFC 5480), as CKA_EC_PARAMS wants it
const p256Parameters = Buffer.from("06082a8648ce3d030107", "hex");

/**
 * Loads the PKCS#11 library, finds the token by label and logs in. Each failure names the setting
 * to fix. The module loads only here, so a server without PKCS11_MODULE never touches it.
 */
export async function openPkcs11Token(settings: Pkcs11Settings): Promise<Pkcs11Token> {
  const pkcs11js = (await import("pkcs11js")).default as typeof Pkcs11Module;
  const library = new pkcs11js.PKCS11();
  try {
    library.load(settings.modulePath);
  } catch (error) {
    throw new TokenSetupError("PKCS11_MODULE", `cannot load the PKCS#11 library ${settings.modulePath} (${(error as Error).message})`);
  }
  try {
    library.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
  } catch (error) {
    // a second open in the same process (tests, the bench): the library is already usable
    if (!/CKR_CRYPTOKI_ALREADY_INITIALIZED/.test((error as Error).message)) {
      throw new TokenSetupError("PKCS11_MODULE", `the PKCS#11 library ${settings.modulePath} did not initialize (${(error as Error).message})`);
    }
  }
  const slot = library.C_GetSlotList(true).find((candidate) => library.C_GetTokenInfo(candidate).label.trim() === settings.tokenLabel);
  if (slot === undefined) throw new TokenSetupError("PKCS11_TOKEN_LABEL", `no token labelled "${settings.tokenLabel}" in ${settings.modulePath}`);
  const session = library.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
  try {
    library.C_Login(session, pkcs11js.CKU_USER, settings.pin);
  } catch (error) {
    const reason = (error as Error).message;
    if (!/CKR_USER_ALREADY_LOGGED_IN/.test(reason)) {
      library.C_CloseSession(session);
      throw new TokenSetupError("PKCS11_PIN", `the token "${settings.tokenLabel}" refused the PIN (${reason.split(":")[0]})`);
    }
  }

  const found = new Map<string, { handle: Buffer; reference: TokenKeyReference }>();
  const findObject = (objectClass: number, label: string): Buffer | null => {
    library.C_FindObjectsInit(session, [
      { type: pkcs11js.CKA_CLASS, value: objectClass },
      { type: pkcs11js.CKA_LABEL, value: label },
    ]);
    try {
      return library.C_FindObjects(session);
    } finally {
      library.C_FindObjectsFinal(session);
    }
  };
  const spkiOf = (publicHandle: Buffer): Uint8Array => {
    const [{ value }] = library.C_GetAttributeValue(session, publicHandle, [{ type: pkcs11js.CKA_EC_POINT }]);
    const point = unwrapOctetString(value as Buffer);
    const size = (point.length - 1) / 2;
    const jwk = { kty: "EC", crv: "P-256", x: point.subarray(1, 1 + size).toString("base64url"), y: point.subarray(1 + size).toString("base64url") };
    return new Uint8Array(createPublicKey({ key: jwk, format: "jwk" }).export({ type: "spki", format: "der" }));
  };
  const remember = (label: string, privateHandle: Buffer, publicHandle: Buffer): TokenKeyReference => {
    const reference: TokenKeyReference = { token: "pkcs11", label, publicKeySpkiDer: spkiOf(publicHandle) };
    found.set(label, { handle: privateHandle, reference });
    return reference;
  };

  const findKey = (label: string): TokenKeyReference | null => {
    const known = found.get(label);
    if (known) return known.reference;
    const privateHandle = findObject(pkcs11js.CKO_PRIVATE_KEY, label);
    const publicHandle = findObject(pkcs11js.CKO_PUBLIC_KEY, label);
    return privateHandle && publicHandle ? remember(label, privateHandle, publicHandle) : null;
  };

  return {
    tokenLabel: settings.tokenLabel,
    generateKey(label) {
      const id = randomBytes(16);
      const common = [
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_LABEL, value: label },
        { type: pkcs11js.CKA_ID, value: id },
      ];
      const keys = library.C_GenerateKeyPair(
        session,
        { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
        [...common, { type: pkcs11js.CKA_EC_PARAMS, value: p256Parameters }, { type: pkcs11js.CKA_VERIFY, value: true }],
        [
          ...common,
          { type: pkcs11js.CKA_PRIVATE, value: true },
          { type: pkcs11js.CKA_SIGN, value: true },
          { type: pkcs11js.CKA_SENSITIVE, value: true },
          { type: pkcs11js.CKA_EXTRACTABLE, value: false },
        ],
      );
      return remember(label, keys.privateKey, keys.publicKey);
    },
    findKey,
    sign(label, data) {
      const key = findKey(label) && found.get(label);
      if (!key) throw new TokenSetupError("PKCS11_TOKEN_LABEL", `the token "${settings.tokenLabel}" has no key labelled ${label}`);
      const digest = createHash("sha256").update(data).digest();
      // SignInit + Sign in one synchronous turn: no other signature can interleave on the session
      library.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key.handle);
      const raw = library.C_Sign(session, digest, Buffer.alloc(132));
      return convertEcdsaRawToDer(new Uint8Array(raw));
    },
  };
}

/** CKA_EC_POINT is a DER OCTET STRING around the uncompressed point (PKCS#11 2.40); some tokens omit it. */
function unwrapOctetString(value: Buffer): Buffer {
  if (value[0] === 0x04 && value[1] === value.length - 2) return value.subarray(2);
  if (value[0] === 0x04 && value[1] === 0x81 && value[2] === value.length - 3) return value.subarray(3);
  return value; // already a bare 04||x||y
}
