import { ConfigError } from "@/lib/config";
import { DataDirInUseError } from "@/db/lock-data-dir";
import { isAppError } from "@/lib/errors";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { openServices } from "@/lib/runtime/services";
import { createWorkerPools } from "./worker-pools";
import { loadPlatformPki } from "@/lib/certificates/load-platform-pki";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { openPlatformToken } from "@/lib/certificates/platform-token";
import { startBackgroundWork } from "./background-work";
import { jobHandlers, periodicSweeps } from "./job-handlers";
import { logError, logInfo } from "@/lib/runtime/log";
import { outboxOwner } from "@/lib/outbox/outbox-owner";

/**
 * Runs once when the Next.js server starts (instrumentation.ts): validate configuration, open and
 * migrate the database, bootstrap the demo organization. A bad setting stops the start with a
 * message a person can act on, not a stack trace.
 */
export async function startServer() {
  const startedAt = Date.now();
  try {
    // the composition root: the pools get the app's task table, worker entry and key-signing rule here
    const services = await openServices(({ db }) => createWorkerPools({ db }));
    const { config } = services;
    // before anything signs: a wrong PKCS11_* setting stops here, naming it
    await openPlatformToken(config);
    const bootstrap = await bootstrapPlatform(
      { domain: config.ORG_DOMAIN, adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD, adminApiSecret: config.ADMIN_API_SECRET },
      services.db,
    ).catch((error) => {
      // Another instance on the same PostgreSQL may have bootstrapped first.
      if (isAppError(error) && error.code === "CONFLICT") return null;
      throw error;
    });
    if (bootstrap) {
      logInfo("bootstrap: created organization, owner and admin credential", {
        organization: bootstrap.organization.domain,
        admin: bootstrap.owner.email,
      });
      // Printed once, on the first start only: there is no other way to learn them.
      const password = bootstrap.generated ? `\n  Generated password: ${bootstrap.password}` : "";
      const secret = bootstrap.credentialSecretGenerated ? `, generated secret ${bootstrap.credentialSecret}` : " (secret from ADMIN_API_SECRET)";
      console.log(
        `\n  Admin login: ${bootstrap.owner.email}${password}` +
          `\n  Process-API credential (POST /api/auth/login): username ${bootstrap.organization.domain}, clientname ${bootstrap.owner.email}${secret}\n`,
      );
    }
    await loadPlatformPki({ db: services.db, settings: pkiSettingsOf(config) });
    const owner = outboxOwner({ instanceId: config.INSTANCE_ID, port: config.PORT });
    startBackgroundWork({
      handlers: jobHandlers(services),
      sweeps: periodicSweeps(services),
      retryBaseMs: config.OUTBOX_RETRY_BASE_SECONDS * 1000,
      leaseSeconds: config.OUTBOX_LEASE_SECONDS,
      // the embedded database has one process (the DATA_DIR lock): every lease left in it is from a dead one
      owner: services.databaseKind === "pglite" ? { owner: owner.owner, previousOwners: "%" } : owner,
    }, services.db);
    logInfo("server ready", {
      database: services.databaseKind,
      dataDir: config.dataDir,
      environment: config.APP_ENV,
      startupMs: Date.now() - startedAt,
    });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirInUseError) {
      console.error(`\nCannot start: ${error.message}\n`);
      process.exit(1);
    }
    logError("cannot start", error);
    process.exit(1);
  }
}
