import type { MessageKey } from "./messages";

const roleKeys: Record<string, MessageKey> = { owner: "role.owner", admin: "role.admin", operator: "role.operator", viewer: "role.viewer" };

/** A staff or credential role in the reader's language; an unknown role shows as stored. */
export function roleName(role: string, t: (key: MessageKey) => string): string {
  const key = roleKeys[role];
  return key ? t(key) : role;
}
