// Preloaded (node --import) into a server under test that listens on `PORT` on every interface: it listens on
// 127.0.0.1 only, and writes the port it got ("listening on 127.0.0.1:<port>") to stderr, so PORT=0 works.
import http from "node:http";

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
	if (typeof args[0] !== "number" && typeof args[0] !== "string") return listen.apply(this, args);
	this.once("listening", () => process.stderr.write(`listening on 127.0.0.1:${this.address().port}\n`));
	return listen.call(this, Number(args[0]), "127.0.0.1", ...args.slice(1).filter((arg) => typeof arg === "function"));
};
