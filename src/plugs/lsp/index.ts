// Door of the language servers: diagnostics after edits, and the lsp tool's queries.
export { installLsp } from "./install-lsp.js";
export { LanguageServers, type LanguageServersOptions, type NewDiagnostics } from "./language-servers.js";
export { runLspQuery, type LspOperation, type LspQuery } from "./lsp-queries.js";
export { DEFAULT_MAX_LINES, DEFAULT_WAIT_MS, type LanguageServerSetting, type LspSettings } from "./server-specs.js";
