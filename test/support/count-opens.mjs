// Preloaded into a loom process (node --import) by tests that count file opens: every path opened through
// node:fs's openSync is appended, one a line, to the file named by LOOM_TEST_OPENS_LOG.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const log = process.env.LOOM_TEST_OPENS_LOG;
if (log) {
	const openSync = fs.openSync;
	fs.openSync = (path, ...rest) => {
		const fd = openSync(path, ...rest);
		if (typeof path === "string" && path !== log) fs.appendFileSync(log, `${path}\n`);
		return fd;
	};
	// Named imports (import { openSync } from "node:fs") see the wrapper too.
	syncBuiltinESMExports();
}
