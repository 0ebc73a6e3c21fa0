// Door of RPC mode: JSON lines of commands in, events and answers out.
export { runRpcMode } from "./rpc-mode.js";
export { MAX_LINE_CHARS } from "./rpc-mode.js";
export { readLines } from "./line-reader.js";
