import { createHash, createPrivateKey, sign as cryptoSign } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

/** Test-only PKI made with the openssl CLI: CA, signer (CAdES) and TSA (critical EKU timeStamping). */
export interface TestPki {
  dir: string;
  caPemPath: string;
  caDer: Uint8Array;
  signerCertDer: Uint8Array;
  tsaCertDer: Uint8Array;
  crlDer: Uint8Array;
  /** CMS SignedData (detached, CAdES: signing-certificate-v2, no signing-time) over a SHA-256 digest. */
  sign: (digestSha256: Uint8Array) => Promise<Uint8Array>;
  /** RFC 3161 TimeStampToken over a SHA-256 digest, made by `openssl ts -reply`. */
  timestamp: (digestSha256: Uint8Array) => Promise<Uint8Array>;
}

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  sha256: "2.16.840.1.101.3.4.2.1",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
};

function openssl(dir: string, args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

function pemToDer(pem: string): Uint8Array {
  const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  return new Uint8Array(Buffer.from(body, "base64"));
}

function issueCertificate(dir: string, name: string, subject: string, extensions: string): void {
  openssl(dir, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", `${name}.key`]);
  openssl(dir, ["req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`]);
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    "x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
    "-days", "30", "-sha256", "-extfile", `${name}.ext`, "-out", `${name}.pem`,
  ]);
}

const TSA_CONFIG = (dir: string) => `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ${dir}/tsaserial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
[ ca ]
default_ca = ca_config
[ ca_config ]
database = ${dir}/index.txt
crlnumber = ${dir}/crlnumber
default_md = sha256
default_crl_days = 30
`;

function cadesSignature(digest: Uint8Array, certDer: Uint8Array, chain: Uint8Array[], keyPem: string): Uint8Array {
  const cert = pkijs.Certificate.fromBER(Uint8Array.from(certDer));
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: Uint8Array.from(createHash("sha256").update(certDer).digest()) }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] })],
          }),
          cert.serialNumber,
        ],
      }),
    ],
  });
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: Uint8Array.from(digest) })] }),
    new pkijs.Attribute({
      type: OID.signingCertificateV2,
      values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
    }),
  ]
    .map((attribute) => ({ attribute, der: Buffer.from(attribute.toSchema().toBER()) }))
    // DER SET OF order: verifiers re-encode the attributes before checking the signature
    .sort((a, b) => Buffer.compare(a.der, b.der));
  const setDer = Buffer.from(new asn1js.Set({ value: attributes.map((a) => a.attribute.toSchema()) }).toBER());
  const signature = cryptoSign("sha256", setDer, { key: createPrivateKey(keyPem), dsaEncoding: "der" });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: attributes.map((a) => a.attribute) }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 }),
    signature: new asn1js.OctetString({ valueHex: signature }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [cert, ...chain.map((der) => pkijs.Certificate.fromBER(Uint8Array.from(der)))],
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

let counter = 0;

export function createTestPki(): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-test-pki-"));
  writeFileSync(path.join(dir, "tsa.cnf"), TSA_CONFIG(dir));
  writeFileSync(path.join(dir, "tsaserial"), "01\n");
  writeFileSync(path.join(dir, "index.txt"), "");
  writeFileSync(path.join(dir, "crlnumber"), "01\n");
  openssl(dir, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ca.key"]);
  openssl(dir, [
    "req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=PDF Engine Test CA/O=Test", "-days", "30", "-sha256",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", "ca.pem",
  ]);
  issueCertificate(dir, "signer", "/CN=PDF Engine Test Signer/O=Test", "keyUsage=critical,digitalSignature,nonRepudiation\n");
  issueCertificate(dir, "tsa", "/CN=PDF Engine Test TSA/O=Test", "keyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n");
  openssl(dir, ["ca", "-gencrl", "-config", "tsa.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-out", "ca.crl"]);
  openssl(dir, ["crl", "-in", "ca.crl", "-outform", "DER", "-out", "ca.crl.der"]);

  const read = (name: string) => readFileSync(path.join(dir, name), "latin1");
  const caDer = pemToDer(read("ca.pem"));
  const signerCertDer = pemToDer(read("signer.pem"));
  const tsaCertDer = pemToDer(read("tsa.pem"));
  const signerKey = read("signer.key");
  return {
    dir,
    caPemPath: path.join(dir, "ca.pem"),
    caDer,
    signerCertDer,
    tsaCertDer,
    crlDer: new Uint8Array(readFileSync(path.join(dir, "ca.crl.der"))),
    // The root stays out of the CMS: poppler 22.12 (NSS) reports "Unknown issue with Certificate" for
    // the second signature of a file when each CMS also carries the trust anchor.
    sign: async (digest) => cadesSignature(digest, signerCertDer, [], signerKey),
    timestamp: async (digest) => {
      const id = `${process.pid}-${++counter}`;
      openssl(dir, ["ts", "-query", "-digest", Buffer.from(digest).toString("hex"), "-sha256", "-cert", "-out", `q${id}.tsq`]);
      openssl(dir, [
        "ts", "-reply", "-config", "tsa.cnf", "-queryfile", `q${id}.tsq`, "-signer", "tsa.pem", "-inkey", "tsa.key",
        "-chain", "ca.pem", "-token_out", "-out", `t${id}.der`,
      ]);
      return new Uint8Array(readFileSync(path.join(dir, `t${id}.der`)));
    },
  };
}
