// The atomic write lives in src/core/files/atomic-write.ts; this name stays for the importers that still use it.
export { atomicWriteFile } from "../core/files/atomic-write.js";
