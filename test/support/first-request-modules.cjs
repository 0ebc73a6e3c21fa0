// Preloaded (NODE_OPTIONS=--require=...) into a loom under test: when its first model request (a path of one of the
// wire APIs) has been written to the connection, writes the Node built-in modules loaded by then to the file named by
// LOOM_TEST_FIRST_REQUEST_LOG.
const { writeFileSync } = require("node:fs");
const http = require("node:http");

const log = process.env.LOOM_TEST_FIRST_REQUEST_LOG;
const MODEL_PATHS = /\/(?:messages|chat\/completions|responses)(?:\?|$)|:streamGenerateContent/;
const request = http.request;
let written = false;
http.request = function (...args) {
	const sent = request.apply(this, args);
	sent.once("finish", () => {
		if (written || !log || !MODEL_PATHS.test(sent.path)) return;
		written = true;
		writeFileSync(log, process.moduleLoadList.join("\n"));
	});
	return sent;
};
