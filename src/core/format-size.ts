// formatSize lives in core/format.ts; this name stays for the importers that still use it.
export { formatSize } from "./format.js";
