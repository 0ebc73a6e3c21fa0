// Door of the session export: a session file as a self-contained HTML page (--export, /export).
export { exportSessionFile, installExport } from "./export-session.js";
