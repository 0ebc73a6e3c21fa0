// Preloaded (NODE_OPTIONS=--import=...) into a process under test: appends the URL of every module it loads to
// the file named by LOOM_TEST_MODULE_LOG, so a test can tell which code a run loaded.
import { register } from "node:module";

register(new URL("./record-modules-hooks.mjs", import.meta.url), { data: { log: process.env.LOOM_TEST_MODULE_LOG } });
