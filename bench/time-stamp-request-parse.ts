// `npx tsx bench/time-stamp-request-parse.ts`: CPU of reading one TimeStampReq (SHA-256, 8-byte nonce, certReq),
// as signTimeStamp and POST /api/tsa read each request: parseTimeStampRequest (the DER tree) against the
// asn1js reader it replaced (kept as the differential test's reference), in this process. Prints figures only.
import { der } from "@/lib/pki/der-encoder";
import { oids } from "@/lib/pki/object-identifiers";
import { parseTimeStampRequest } from "@/lib/tsa/parse-time-stamp-request";
import { parseTimeStampRequestWithAsn1js } from "@/lib/tsa/testing/parse-time-stamp-request-with-asn1js";
const request = der.sequence(der.integer(1), der.sequence(der.sequence(der.oid(oids.sha256), der.null()), der.octetString(new Uint8Array(32).fill(7))), der.integer(Uint8Array.of(0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0x01)), der.boolean(true));
const m = (name: string, f: (d: Uint8Array) => unknown) => { for (let i = 0; i < 5000; i++) f(request); const c = process.cpuUsage(); const n = 50000; for (let i = 0; i < n; i++) f(request); const u = process.cpuUsage(c); console.log(name.padEnd(34), (((u.user + u.system) / n)).toFixed(2), "µs CPU per request"); };
for (let r = 0; r < 2; r++) { m("asn1js tree (former reader)", parseTimeStampRequestWithAsn1js); m("DER tree (parseTimeStampRequest)", parseTimeStampRequest); }
