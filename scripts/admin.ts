// `npm run admin -- <command>`: platform administration against the configured database, for
// scripted deployments. On the embedded database it refuses to run while a server holds DATA_DIR.
// Passwords and secrets come from ADMIN_CLI_SECRET or stdin, never arguments (ps, shell history).
import { parseArgs } from "node:util";
import readline from "node:readline";
import { ZodError } from "zod";
import { loadConfig, ConfigError } from "@/lib/config/load-config";
import { openDatabase } from "@/db/client";
import { DataDirInUseError } from "@/db/lock-data-dir";
import { isAppError } from "@/lib/errors";
import { createOrganization } from "@/lib/organizations/create-organization";
import { setOrganizationStatus } from "@/lib/organizations/set-organization-status";
import { setPrivateCallbacks } from "@/lib/organizations/set-private-callbacks";
import { updateOrganizationSettings } from "@/lib/organizations/update-organization-settings";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { findOrganizationByDomain } from "@/lib/organizations/find-organization";
import { createStaffUser } from "@/lib/organizations/create-staff-user";
import { createCredential } from "@/lib/credentials/create-credential";
import { resetStaffPassword } from "@/lib/auth/change-staff-password";
import { unblockLogins } from "@/lib/auth/throttle-logins";
import type { Db } from "@/db/client";
import { backup, restore, rotateToken, BackupError } from "./admin-backup";

const usage = `usage: npm run admin -- <command>
  (commands marked * read the password or secret from ADMIN_CLI_SECRET, or else the first line of stdin)
  org:create --domain D --owner-email E [--name N]                 * the owner's password
  org:suspend D
  org:reactivate D
  org:list
  org:private-callbacks D on|off     allow (or refuse again) callbacks to private-network receivers; audited
  org:time-zone D ZONE               IANA zone for dashboard dates and filters (default America/Lima)
  user:create --org D --email E --role owner|admin|operator|viewer  * the password
  user:reset-password --email E      * the new password; ends every session, token and credential it opened (platform administrators too)
  credential:create --org D --clientname C --role admin|operator|viewer  * the secret
  login:unblock --email E            lift the login blocks of a staff account, from every address
  login:unblock --org D --clientname C   the same for a process-API credential
  backup FILE [--url URL] [--encrypt]  archive of the embedded database, blobs and secret key, made by the running server (default URL http://127.0.0.1:$PORT);
                                     --encrypt: AES-256-GCM under a passphrase from BACKUP_PASSPHRASE or stdin
  restore FILE --data-dir DIR        unpack a backup into an empty directory (an encrypted one asks its passphrase), then start a server with DATA_DIR=DIR
  admin-token:rotate                 a new DATA_DIR/admin.token for the backup channel (when ADMIN_TOKEN is not set); the old one stops working`;

const options = {
  domain: { type: "string" },
  name: { type: "string" },
  "owner-email": { type: "string" },
  "owner-password": { type: "string" },
  org: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  role: { type: "string" },
  clientname: { type: "string" },
  secret: { type: "string" },
  url: { type: "string" },
  "data-dir": { type: "string" },
  encrypt: { type: "boolean" },
} as const;

type Values = { [K in keyof typeof options]?: (typeof options)[K]["type"] extends "boolean" ? boolean : string };

const commands: Record<string, (values: Values, positionals: string[], db: Db) => Promise<string>> = {
  async "org:create"(v, _p, db) {
    const { organization, owner } = await createOrganization(
      { domain: v.domain ?? "", displayName: v.name, ownerEmail: v["owner-email"] ?? "", ownerPassword: await readSecret("the owner's password") },
      db,
    );
    return `created organization ${organization.domain} with owner ${owner.email}`;
  },
  async "org:suspend"(_v, p, db) {
    const row = await setOrganizationStatus({ domain: required(p[0], "domain"), status: "suspended", actor: "admin-cli" }, db);
    return `suspended ${row.domain}: its tokens and credentials stop working; data is kept`;
  },
  async "org:reactivate"(_v, p, db) {
    const row = await setOrganizationStatus({ domain: required(p[0], "domain"), status: "active", actor: "admin-cli" }, db);
    return `reactivated ${row.domain}`;
  },
  async "org:list"(_v, _p, db) {
    const rows = await listOrganizations(db);
    return rows.map((r) => `${r.domain}\t${r.status}\t${r.staff} staff\t${r.displayName}`).join("\n") || "no organizations";
  },
  async "org:private-callbacks"(_v, p, db) {
    const organization = await findOrganizationByDomain(required(p[0], "domain"), db);
    const switchTo = required(p[1], "on|off");
    if (switchTo !== "on" && switchTo !== "off") throw new UsageError("the second argument must be on or off");
    const row = await setPrivateCallbacks({ organizationId: organization.id, allow: switchTo === "on", actor: "admin-cli" }, db);
    return row.allowPrivateCallbacks
      ? `${row.domain}: callbacks may now go to private-network receivers (10.x, 192.168.x, localhost...); only for on-premises installations`
      : `${row.domain}: callbacks to private-network receivers are refused`;
  },
  async "org:time-zone"(_v, p, db) {
    const organization = await findOrganizationByDomain(required(p[0], "domain"), db);
    const row = await updateOrganizationSettings({ organizationId: organization.id, settings: { timeZone: required(p[1], "zone") }, actor: "admin-cli" }, db);
    return `${row.domain}: dashboard dates in ${row.timeZone}`;
  },
  async "user:create"(v, _p, db) {
    const organization = await findOrganizationByDomain(required(v.org, "--org"), db);
    const user = await createStaffUser(
      { organizationId: organization.id, email: v.email ?? "", password: await readSecret("the password"), role: v.role as never },
      db,
    );
    return `created ${user.role} ${user.email} in ${organization.domain}`;
  },
  async "credential:create"(v, _p, db) {
    const organization = await findOrganizationByDomain(required(v.org, "--org"), db);
    const credential = await createCredential(
      { organizationId: organization.id, clientname: v.clientname ?? "", secret: await readSecret("the secret"), role: v.role as never },
      db,
    );
    return `created ${credential.role} credential ${credential.clientname} in ${organization.domain}`;
  },
  async "user:reset-password"(v, _p, db) {
    const email = required(v.email, "--email");
    const user = await resetStaffPassword({ email, newPassword: await readSecret("the new password"), actor: { kind: "admin-cli" } }, db);
    return `reset the password of ${user.email}: their sessions, stamp-API tokens and any credential holding the old password ended`;
  },
  async "login:unblock"(v, _p, db) {
    const account = v.email ? `staff:${v.email}` : `credential:${required(v.org, "--org or --email")}/${required(v.clientname, "--clientname")}`;
    const cleared = await unblockLogins(account, db);
    return cleared > 0 ? `unblocked ${account.slice(account.indexOf(":") + 1)} (${cleared} block${cleared === 1 ? "" : "s"} lifted)` : `${account.slice(account.indexOf(":") + 1)} had no login block`;
  },
};

/** Secrets never travel as arguments: ADMIN_CLI_SECRET, or the first line of stdin (prompted on a terminal). */
async function readSecret(what: string): Promise<string> {
  const fromEnv = process.env.ADMIN_CLI_SECRET;
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) process.stderr.write(`${what}: `);
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new UsageError(`missing ${what}: set ADMIN_CLI_SECRET or write it on stdin`);
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`missing ${name}`);
  return value;
}

class UsageError extends Error {}

// commands that never open the database themselves: a backup asks the server that owns it
const channelCommands: Record<string, (values: Values, positionals: string[]) => Promise<string>> = {
  backup: (v, p) => backup(required(p[0], "FILE"), v.url, v.encrypt),
  "admin-token:rotate": () => rotateToken(),
  restore: (v, p) => restore(required(p[0], "FILE"), v["data-dir"]),
};

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const channel = command ? channelCommands[command] : undefined;
  if (channel) {
    const { values, positionals } = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    console.log(await channel(values, positionals));
    return 0;
  }
  const run = command ? commands[command] : undefined;
  if (!run) {
    console.error(command ? `unknown command: ${command}\n${usage}` : usage);
    return 2;
  }
  const { values, positionals } = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  const secretFlag = (["password", "owner-password", "secret"] as const).find((name) => values[name] !== undefined);
  if (secretFlag) throw new UsageError(`--${secretFlag} is not accepted: arguments show in ps and shell history; set ADMIN_CLI_SECRET or write it on stdin`);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    console.log(await run(values, positionals, database.db));
    return 0;
  } finally {
    await database.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    if (error instanceof ZodError) {
      console.error(`error: ${error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ")}`);
    } else if (isAppError(error) || error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof UsageError || error instanceof BackupError) {
      console.error(`error: ${error.message}`);
    } else if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      console.error(`error: ${error.message}\n${usage}`);
    } else {
      console.error("error:", error);
    }
    process.exit(1);
  });
