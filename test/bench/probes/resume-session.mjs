// Probe: open (resume) a session file. Prints time, message count and peak RSS.
import { SessionStore } from "../../../dist/core/session/index.js";
import { peakRss } from "./run-probe.mjs";

const { file } = JSON.parse(process.argv[2]);
const started = process.hrtime.bigint();
const store = await SessionStore.open(file);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
console.log(JSON.stringify({ ms, messages: store.messageCount, peakRss: peakRss() }));
