import Link from "next/link";
import { signOut } from "@/lib/auth/staff-session";
import type { MessageKey } from "@/lib/i18n/messages";

export const staffSections: { href: string; label: MessageKey }[] = [
  { href: "/", label: "nav.home" },
  { href: "/processes", label: "nav.processes" },
  { href: "/processes/new", label: "nav.newProcess" },
  { href: "/approvals", label: "nav.approvals" },
  { href: "/stamp", label: "nav.stamp" },
  { href: "/labels", label: "nav.labels" },
  { href: "/api-access", label: "nav.apiAccess" },
  { href: "/certificates", label: "nav.certificates" },
  { href: "/organization", label: "nav.organization" },
  { href: "/verify", label: "nav.verify" },
  { href: "/audit", label: "nav.audit" },
];

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: "/login" });
}

export function StaffNav({ t, isPlatformAdmin }: { t: (key: MessageKey) => string; isPlatformAdmin: boolean }) {
  return (
    <nav className="shell-nav" aria-label="Principal">
      <Link href="/" className="brand">
        {t("app.name")}
      </Link>
      {staffSections.map((section) => (
        <Link key={section.href} href={section.href}>
          {t(section.label)}
        </Link>
      ))}
      {isPlatformAdmin && <Link href="/platform">{t("nav.platform")}</Link>}
      <span className="spacer" />
      <form action={signOutAction}>
        <button type="submit" className="button button-secondary">
          {t("nav.signOut")}
        </button>
      </form>
    </nav>
  );
}
