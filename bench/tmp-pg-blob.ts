import fs from "node:fs";
import postgres from "postgres";
import { ensureLargeInput } from "./large-input";

function copyBinaryTuple(key: string, contentType: string, body: Uint8Array): Buffer[] {
  const header = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
  const flags = Buffer.alloc(8); // flags int32 0, header extension length int32 0
  const fields = Buffer.alloc(2); fields.writeInt16BE(4);
  const text = (s: string) => { const b = Buffer.from(s, "utf8"); const l = Buffer.alloc(4); l.writeInt32BE(b.length); return [l, b]; };
  const int = (n: number) => { const b = Buffer.alloc(8); b.writeInt32BE(4); b.writeInt32BE(n, 4); return [b]; };
  const bodyLen = Buffer.alloc(4); bodyLen.writeInt32BE(body.length);
  const trailer = Buffer.alloc(2); trailer.writeInt16BE(-1);
  return [header, flags, fields, ...text(key), ...text(contentType), ...int(body.length), bodyLen, Buffer.from(body.buffer, body.byteOffset, body.length), trailer];
}

async function main() {
  const sql = postgres(process.env.TEST_PG_ADMIN_URL!, { max: 2, onnotice: () => {} });
  await sql`create table if not exists tblob (key text primary key, content_type text not null, size integer not null, body bytea not null)`;
  const bytes = new Uint8Array(fs.readFileSync(ensureLargeInput()));
  const time = async (label: string, f: () => Promise<unknown>) => {
    const c0 = process.cpuUsage(); const t0 = performance.now();
    await f();
    const c = process.cpuUsage(c0);
    console.log(`${label.padEnd(34)} wall ${(performance.now() - t0).toFixed(0)} ms, our CPU ${((c.user + c.system) / 1000).toFixed(0)} ms`);
  };
  if (process.argv[2] === "external") await sql`alter table tblob alter column body set storage external`;
  for (let i = 0; i < 3; i++) {
    await time("insert, bytea parameter (hex)", () => sql`insert into tblob values (${"k" + i}, 'application/pdf', ${bytes.length}, ${Buffer.from(bytes)}) on conflict (key) do update set body = excluded.body`);
    await time("COPY FROM STDIN binary", async () => {
      await sql.begin(async (tx) => {
        await tx`delete from tblob where key = ${"c" + i}`;
        const stream = await tx`copy tblob (key, content_type, size, body) from stdin (format binary)`.writable();
        await new Promise<void>((resolve, reject) => {
          stream.on("error", reject);
          stream.on("finish", () => resolve());
          for (const part of copyBinaryTuple("c" + i, "application/pdf", bytes)) stream.write(part);
          stream.end();
        });
      });
    });
    await time("select (hex)", async () => { const [r] = await sql`select body from tblob where key = ${"k" + i}`; if (r.body.length !== bytes.length) throw new Error("len"); });
  }
  await sql.end();
}
main().catch((e) => { console.error(e); process.exit(1); });
