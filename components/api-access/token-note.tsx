import Link from "next/link";
import type { MessageKey } from "@/lib/i18n/messages";

type Props = { publicUrl: string; domain: string; t: (key: MessageKey) => string };

/**
 * How each API family gets its token, with the real endpoints (app/api/v3/auth/token and
 * app/api/auth/login): the stamp API takes a person's e-mail and password, the process API a
 * credential's own secret, never a password (issue 39).
 */
export function TokenNote({ publicUrl, domain, t }: Props) {
  const stamp = `curl -X POST ${publicUrl}/api/v3/auth/token -H 'Content-Type: application/json' -d '{"email":"persona@${domain}","password":"…"}'`;
  const process = `curl -X POST ${publicUrl}/api/auth/login -H 'Content-Type: application/json' -d '{"username":"${domain}","clientname":"integracion@${domain}","password":"<secreto de la credencial>"}'`;
  return (
    <section className="card api-note" data-testid="token-note" aria-labelledby="token-note-title">
      <h2 id="token-note-title">{t("apiNote.title")}</h2>
      <p>{t("apiNote.stamp")}</p>
      <pre data-testid="curl-stamp"><code>{stamp}</code></pre>
      <p>{t("apiNote.process")}</p>
      <pre data-testid="curl-process"><code>{process}</code></pre>
      <p><Link href="/docs/api">{t("apiNote.reference")}</Link></p>
    </section>
  );
}
