// Module hooks of record-modules.mjs: every module loaded is written down, one URL a line.
import { appendFileSync } from "node:fs";

let log;

export function initialize(data) {
	log = data?.log;
}

export async function load(url, context, nextLoad) {
	if (log) appendFileSync(log, `${url}\n`);
	return nextLoad(url, context);
}
