// Door of cli/rpc.
export { runRpcMode } from "./rpc-mode.js";
