import os from "node:os";

/**
 * Who holds an outbox lease: `<instance>#<pid>`. The instance name is INSTANCE_ID, or host and
 * port, so it survives a restart while the pid does not: a restarted instance can tell its dead
 * predecessor's leases from those of other live instances on the same database.
 */
export function outboxOwner(input: { instanceId?: string; port: number; pid?: number }): { owner: string; previousOwners: string } {
  const instance = input.instanceId ?? `${os.hostname()}:${input.port}`;
  return { owner: `${instance}#${input.pid ?? process.pid}`, previousOwners: `${instance.replace(/[\\%_]/g, (c) => `\\${c}`)}#%` };
}
