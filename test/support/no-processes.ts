// Setup of the "unit" project: a test there that starts a process or a server fails at once, saying where it belongs.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { afterAll } from "vitest";

const SPAWNERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

function refuse(what: string): never {
	throw new Error(`This unit test ${what}. Tests that start processes or servers run in the "process" project: add the file to PROCESS_TESTS in vitest.config.ts.`);
}

const originals = { listen: net.Server.prototype.listen, ...Object.fromEntries(SPAWNERS.map((name) => [name, childProcess[name]])) };
for (const name of SPAWNERS) (childProcess as Record<string, unknown>)[name] = () => refuse(`started a process (child_process.${name})`);
net.Server.prototype.listen = () => refuse("started a server (listen)");
syncBuiltinESMExports();

afterAll(() => {
	const { listen, ...spawners } = originals;
	Object.assign(childProcess, spawners);
	net.Server.prototype.listen = listen;
	syncBuiltinESMExports();
});
