/**
 * What a pool worker may read of the environment: the settings its tasks use, and nothing that
 * unlocks anything (PKCS11_PIN, SECRET_KEY, DATABASE_URL, S3 keys, TSA and SMTP credentials stay on
 * the main thread). A list of what is let in, so a new secret stays out without anyone thinking of it.
 */
const WORKER_SETTINGS = ["NODE_ENV", "TZ", "LANG", "LC_ALL", "PATH", "HOME", "TMPDIR", "LOG_LEVEL", "SERVER_TIMING", "FACE_MATCH_THRESHOLD", "VITEST"];

export function workerEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of WORKER_SETTINGS) if (env[name] !== undefined) kept[name] = env[name]!;
  return kept;
}
