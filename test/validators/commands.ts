import path from "node:path";

/**
 * The repository's own independent validators (test/validators/README.md): executables, so a test can
 * run them under faketime or read their exit code like any Debian tool.
 */
export const VALIDATE_PDF = path.join(__dirname, "validate-pdf.mjs");
export const VALIDATE_TSR = path.join(__dirname, "validate-tsr.mjs");
