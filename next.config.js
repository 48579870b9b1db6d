/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native, WASM and CommonJS-heavy packages load from node_modules at run time instead of being bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "postgres",
    "pkijs",
    "asn1js",
    "@peculiar/x509",
    "pdf-lib",
    "@pdf-lib/fontkit",
    "qrcode",
    "busboy",
    "nodemailer",
    "@vladmandic/human",
    "@tensorflow/tfjs-core",
    "@tensorflow/tfjs-converter",
    "@tensorflow/tfjs-backend-wasm",
    "jpeg-js",
    "pngjs",
    "@jsquash/webp",
    "fxa-common-password-list",
    "pino",
    "prom-client",
    "pkcs11js",
  ],
  experimental: {
    // Server actions (the unauthenticated login included) take small forms only: the documented 1 MB,
    // refused by Next before the action runs. Uploads go to route handlers and our streaming
    // multipart parser with its own limits (lib/http/parse-multipart.ts).
    serverActions: { bodySizeLimit: "1mb" },
    // proxy.ts does not run for uploads (see its matcher); should a large page POST reach it, never truncate
    proxyClientMaxBodySize: "60mb",
  },
  // API answers (documents, tokens, reports) get their security headers here: proxy.ts skips /api so
  // that Next never buffers upload bodies for it (lib/http/security-headers.ts holds the page policy)
  async headers() {
    return [
      {
        source: "/api/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Cache-Control", value: "no-store" },
          ...(process.env.PUBLIC_URL?.startsWith("https://") ? [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }] : []),
        ],
      },
      {
        // a time-stamp answer (~2.5 KB of JSON around a base64 token) is sent as it is: gzip saved
        // 1 KB and cost more CPU than signing the token (bench/time-stamp-profile.ts); later rules win
        source: "/api/:version(v2|v3)/signTimeStamp",
        headers: [{ key: "Cache-Control", value: "no-store, no-transform" }],
      },
    ];
  },
};

module.exports = nextConfig;
