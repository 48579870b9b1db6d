export * from "./organizations";
export * from "./auth";
export * from "./blobs";
export * from "./stamp-signing";
