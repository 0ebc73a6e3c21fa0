// Door of RPC mode: JSON lines of commands in, events and answers out.
export { runRpcMode } from "./rpc-mode.js";
