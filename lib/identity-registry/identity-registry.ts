import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityRegistryEntries } from "@/db/schema";
import type { PersonNames } from "./schemas";

export type RegistryPerson = { organizationId: string; nat: string; docId: string };

/**
 * Where the names of a person come from, given their ID. The default is the table an organization
 * imports (CSV); an organization with access to its country's registry plugs in an adapter with
 * the same shape (see docs/signer-pages.md). Names found are only proposed: the signer confirms them.
 */
export interface IdentityRegistry {
  findNames(person: RegistryPerson): Promise<PersonNames | null>;
}

/** The default registry: rows imported by the organization (lib/identity-registry/import-identity-registry.ts). */
export function tableIdentityRegistry(db: Db): IdentityRegistry {
  return {
    async findNames({ organizationId, nat, docId }) {
      const [row] = await db
        .select({ given_name: identityRegistryEntries.givenName, family_name: identityRegistryEntries.familyName })
        .from(identityRegistryEntries)
        .where(and(eq(identityRegistryEntries.organizationId, organizationId), eq(identityRegistryEntries.nat, nat), eq(identityRegistryEntries.docId, docId)))
        .limit(1);
      return row ?? null;
    },
  };
}

/** Asks each registry in turn; the first that knows the person answers (a country adapter before the imported table). */
export function chainIdentityRegistries(...registries: IdentityRegistry[]): IdentityRegistry {
  return {
    async findNames(person) {
      for (const registry of registries) {
        const found = await registry.findNames(person);
        if (found) return found;
      }
      return null;
    },
  };
}

/**
 * The registry the signer pages consult. Today the imported table; a country adapter is added
 * here, in front of it (chainIdentityRegistries), when its settings are configured.
 */
export function identityRegistryFor(services: { db: Db }): IdentityRegistry {
  return tableIdentityRegistry(services.db);
}
