export * from "./organizations";
export * from "./auth";
export * from "./blobs";
export * from "./stamp-signing";
export * from "./pki";
export * from "./outbox";
