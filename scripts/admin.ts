// `npm run admin -- <command>`: platform administration against the configured database, for
// scripted deployments. On the embedded database it refuses to run while a server holds DATA_DIR.
import { parseArgs } from "node:util";
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
import type { Db } from "@/db/client";

const usage = `usage: npm run admin -- <command>
  org:create --domain D --owner-email E --owner-password P [--name N]
  org:suspend D
  org:reactivate D
  org:list
  org:private-callbacks D on|off     allow (or refuse again) callbacks to private-network receivers; audited
  org:time-zone D ZONE               IANA zone for dashboard dates and filters (default America/Lima)
  user:create --org D --email E --password P --role owner|admin|operator|viewer
  credential:create --org D --clientname C --secret S --role admin|operator|viewer`;

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
} as const;

type Values = { [K in keyof typeof options]?: string };

const commands: Record<string, (values: Values, positionals: string[], db: Db) => Promise<string>> = {
  async "org:create"(v, _p, db) {
    const { organization, owner } = await createOrganization(
      { domain: v.domain ?? "", displayName: v.name, ownerEmail: v["owner-email"] ?? "", ownerPassword: v["owner-password"] ?? "" },
      db,
    );
    return `created organization ${organization.domain} with owner ${owner.email}`;
  },
  async "org:suspend"(_v, p, db) {
    const row = await setOrganizationStatus(required(p[0], "domain"), "suspended", db, "admin-cli");
    return `suspended ${row.domain}: its tokens and credentials stop working; data is kept`;
  },
  async "org:reactivate"(_v, p, db) {
    const row = await setOrganizationStatus(required(p[0], "domain"), "active", db, "admin-cli");
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
      { organizationId: organization.id, email: v.email ?? "", password: v.password ?? "", role: v.role as never },
      db,
    );
    return `created ${user.role} ${user.email} in ${organization.domain}`;
  },
  async "credential:create"(v, _p, db) {
    const organization = await findOrganizationByDomain(required(v.org, "--org"), db);
    const credential = await createCredential(
      { organizationId: organization.id, clientname: v.clientname ?? "", secret: v.secret ?? "", role: v.role as never },
      db,
    );
    return `created ${credential.role} credential ${credential.clientname} in ${organization.domain}`;
  },
};

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`missing ${name}`);
  return value;
}

class UsageError extends Error {}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const run = command ? commands[command] : undefined;
  if (!run) {
    console.error(command ? `unknown command: ${command}\n${usage}` : usage);
    return 2;
  }
  const { values, positionals } = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
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
    } else if (isAppError(error) || error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof UsageError) {
      console.error(`error: ${error.message}`);
    } else if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      console.error(`error: ${error.message}\n${usage}`);
    } else {
      console.error("error:", error);
    }
    process.exit(1);
  });
