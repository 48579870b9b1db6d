import Link from "next/link";
import type { MessageKey } from "@/lib/i18n/messages";
import { can, type Permission } from "@/lib/auth/roles";
import type { StaffRole } from "@/db/schema";
import { NavDrawer } from "./nav-drawer";
import { signOutAction } from "./sign-out-action";

/** Each section names the permission its page requires, so nobody is offered a page that refuses them. */
export const staffSections: { href: string; label: MessageKey; permission?: Permission }[] = [
  { href: "/", label: "nav.home" },
  { href: "/processes", label: "nav.processes", permission: "processes:read" },
  { href: "/processes/new", label: "nav.newProcess", permission: "processes:create" },
  { href: "/approvals", label: "nav.approvals", permission: "processes:approve" },
  { href: "/identity-reviews", label: "nav.identityReviews", permission: "identity:review" },
  { href: "/stamp", label: "nav.stamp", permission: "stamp:sign" },
  { href: "/labels", label: "nav.labels", permission: "labels:read" },
  { href: "/api-access", label: "nav.apiAccess", permission: "credentials:manage" },
  { href: "/certificates", label: "nav.certificates", permission: "certificates:manage" },
  { href: "/organization", label: "nav.organization", permission: "staff:manage" },
  { href: "/verification", label: "nav.verify" },
  { href: "/audit", label: "nav.audit", permission: "audit:read" },
  { href: "/account", label: "nav.account" },
];

export function StaffNav({ t, role, isPlatformAdmin }: { t: (key: MessageKey) => string; role: StaffRole; isPlatformAdmin: boolean }) {
  return (
    <NavDrawer brand={<Link href="/" className="brand">{t("app.name")}</Link>} menuLabel={t("nav.menu")} closeLabel={t("nav.close")}>
      {staffSections.filter((section) => !section.permission || can(role, section.permission)).map((section) => (
        <Link key={section.href} href={section.href}>
          {t(section.label)}
        </Link>
      ))}
      {isPlatformAdmin && <Link href="/platform">{t("nav.platform")}</Link>}
      <Link href="/docs/api">{t("docs.apiTitle")}</Link>
      <span className="spacer" />
      <form action={signOutAction}>
        <button type="submit" className="button button-secondary">
          {t("nav.signOut")}
        </button>
      </form>
    </NavDrawer>
  );
}
