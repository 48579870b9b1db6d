// A large signPDF sent by curl, not by this process's fetch: on a 2-core VM, Node's fetch with a
// FormData Blob sends 50 MB in ~700-900 ms (to a server that only discards it), curl in ~60 ms.
// The bench measures the server, so its 50 MB client is curl
// (bench/results/2026-12-01-large-upload-client-curl.txt has the figures). Needs curl on the PATH
// (Debian: apt-get install curl); the test suite does not.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** `ms`: curl's own time from the start of the request to the answer's last byte. */
export type CurlAnswer = { status: number; headers: Map<string, string>; body: Uint8Array; ms: number };

/** POSTs `fields` and `file` (as pdf_file) to the v2 signPDF with a Bearer token. */
export async function curlSignPdf(baseUrl: string, token: string, fields: Record<string, string | number>, file: string): Promise<CurlAnswer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-curl-"));
  try {
    const form = Object.entries(fields).flatMap(([name, value]) => ["--form-string", `${name}=${value}`]);
    const args = ["-s", "-S", "-D", path.join(dir, "headers"), "-o", path.join(dir, "body"), "-H", `authorization: Bearer ${token}`, ...form, "-F", `pdf_file=@${file};type=application/pdf`];
    const { stdout } = await promisify(execFile)("curl", [...args, "-w", "%{time_total}", `${baseUrl}/api/v2/signPDF`]);
    // the last header block is the answer's (a "100 Continue" block may come first)
    const blocks = fs.readFileSync(path.join(dir, "headers"), "latin1").trim().split(/\r\n\r\n/);
    const [statusLine, ...lines] = blocks[blocks.length - 1].split("\r\n");
    const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    const body = new Uint8Array(fs.readFileSync(path.join(dir, "body")));
    return { status: Number(statusLine.split(" ")[1]), headers, body, ms: Number(stdout.trim()) * 1000 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
