// File kinds live in src/core/files/file-kind.ts; this name stays for the importers that still use it.
export { looksBinary, SNIFF_BYTES } from "../core/files/file-kind.js";
