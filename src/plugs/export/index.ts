// Door of plugs/export.
export { exportSessionFile, installExport } from "./export-session.js";
