import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export type OutsideCa = {
  rootPemFile: string;
  agentP12: Uint8Array;
  p12Password: string;
  /** Requests the CRL server answered, so a test can tell fetched from cached. */
  crlRequests: () => number;
  setCrlAvailable: (available: boolean) => void;
  /** Serve a CRL with the root's name, current and well formed, but signed by another key (a forgery). */
  setCrlForged: (forged: boolean) => void;
  agentPemFile: string;
  close: () => Promise<void>;
};

/**
 * An outside CA made with the openssl CLI, as a customer's would be: a root, an agent certificate
 * (in a PKCS#12 with the root) whose CRL distribution point is a local HTTP server, and the root's
 * CRL issued after the agent certificate, served there.
 */
export async function startOutsideCa(dir: string): Promise<OutsideCa> {
  fs.mkdirSync(dir, { recursive: true });
  let available = true;
  let forged = false;
  let requests = 0;
  let crlDer = Buffer.alloc(0);
  let forgedCrlDer = Buffer.alloc(0);
  const server = http.createServer((request, response) => {
    requests++;
    if (!available || request.url !== "/acme-root.crl") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/pkix-crl" }).end(forged ? forgedCrlDer : crlDer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acme-root.crl`;
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650", "-subj", "/O=Acme SAC/CN=Acme Outside Root", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "agent.key", "-out", "agent.csr", "-subj", "/O=Acme SAC/CN=Acme Agente");
  fs.writeFileSync(path.join(dir, "agent.ext"), `keyUsage=critical,digitalSignature,nonRepudiation\ncrlDistributionPoints=URI:${url}\n`);
  run("x509", "-req", "-in", "agent.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "agent.pem", "-days", "1825", "-sha256", "-extfile", "agent.ext");
  run("pkcs12", "-export", "-inkey", "agent.key", "-in", "agent.pem", "-certfile", "ca.pem", "-out", "agent.p12", "-passout", "pass:p12-secret");
  fs.writeFileSync(path.join(dir, "index.txt"), "");
  fs.writeFileSync(path.join(dir, "crlnumber"), "01\n");
  fs.writeFileSync(path.join(dir, "ca.cnf"), `[ca]\ndefault_ca=acme\n[acme]\ndatabase=${dir}/index.txt\ncrlnumber=${dir}/crlnumber\ndefault_md=sha256\ndefault_crl_days=30\n`);
  run("ca", "-gencrl", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-out", "crl.pem");
  crlDer = execFileSync("openssl", ["crl", "-in", "crl.pem", "-outform", "DER"], { cwd: dir });
  // the forger's own "Acme Outside Root": same name, another key
  run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "forged.key", "-out", "forged.pem", "-days", "3650", "-subj", "/O=Acme SAC/CN=Acme Outside Root", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  run("ca", "-gencrl", "-config", "ca.cnf", "-keyfile", "forged.key", "-cert", "forged.pem", "-out", "forged-crl.pem");
  forgedCrlDer = execFileSync("openssl", ["crl", "-in", "forged-crl.pem", "-outform", "DER"], { cwd: dir });
  return {
    rootPemFile: path.join(dir, "ca.pem"),
    agentP12: new Uint8Array(fs.readFileSync(path.join(dir, "agent.p12"))),
    p12Password: "p12-secret",
    crlRequests: () => requests,
    setCrlAvailable: (value) => void (available = value),
    setCrlForged: (value) => void (forged = value),
    agentPemFile: path.join(dir, "agent.pem"),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
