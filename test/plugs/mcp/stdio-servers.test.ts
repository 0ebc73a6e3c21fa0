// Real servers over stdio (server-everything, server-filesystem) through loom's MCP client: their tools as loom
// tools, each kind of result, progress, errors, cancellation, timeouts, and what happens when a server fails.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive } from "../../../src/core/lib/process/index.js";
import { mcpCommand } from "../../../src/plugs/mcp/mcp-command.js";
import { MAX_RESTARTS } from "../../../src/plugs/mcp/server-connection.js";
import { serverProcessGroups } from "../../../src/plugs/mcp/stdio-transport.js";
import {
	everythingRecorded,
	everythingStdio,
	everythingWithPid,
	filesystemStdio,
	oddServerStdio,
	processesGone,
	recordedMessages,
	waitForPid,
} from "../../support/mcp-servers.js";
import { tempDir } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";
import { BUILTIN_STAND_IN, resultText, sharedServers, startServers } from "./harness.js";

describe("server-everything over stdio", () => {
	// One set for the cases that leave their servers as they found them: `everything` (what loom sends it
	// recorded), `timed` (a 400 ms call timeout, recorded too) and `patient` (800 ms).
	const log = join(tempDir(), "sent.jsonl");
	const timedLog = join(tempDir(), "timed-sent.jsonl");
	const shared = sharedServers({
		everything: everythingRecorded(log),
		timed: everythingRecorded(timedLog, { timeout: 400 }),
		patient: everythingStdio({ timeout: 800 }),
	});

	it("adds its tools as mcp__everything__<tool> after the session's own, readOnly from readOnlyHint", async () => {
		const mcp = shared();
		const names = mcp.tools().map((tool) => tool.name);
		expect(names[0]).toBe(BUILTIN_STAND_IN.name);
		expect(names).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-tiny-image", "mcp__everything__trigger-long-running-operation"]));
		const echo = mcp.tools().find((tool) => tool.name === "mcp__everything__echo")!;
		expect(echo.description).toBe("Echoes back the input string");
		expect(echo.readOnly).toBe(true);
		expect(mcp.tools().find((tool) => tool.name === "mcp__everything__toggle-simulated-logging")!.readOnly).toBeUndefined();
		expect(mcp.servers.connections[0]!.state).toBe("ready");
		expect(mcp.notices).toEqual([]);
	});

	it("returns text, images and resources as content the model reads", async () => {
		const mcp = shared();
		expect(resultText(await mcp.call("mcp__everything__echo", { message: "hello" }))).toBe("Echo: hello");
		expect(resultText(await mcp.call("mcp__everything__get-sum", { a: 2, b: "3" }))).toBe("The sum of 2 and 3 is 5.");
		const image = await mcp.call("mcp__everything__get-tiny-image");
		expect(image.content.map((part) => part.type)).toEqual(["text", "image", "text"]);
		expect(image.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
		const resource = resultText(await mcp.call("mcp__everything__get-resource-reference", { resourceType: "Text", resourceId: 2 }));
		expect(resource).toContain("[resource <demo://resource/dynamic/text/2> (text/plain)]\nResource 2:");
	});

	it("checks arguments against the tool's JSON Schema before the call, naming the field", async () => {
		const mcp = shared();
		await expect(mcp.call("mcp__everything__echo", {})).rejects.toThrow(/Validation failed for tool "mcp__everything__echo":\n {2}- \/message/);
		await expect(mcp.call("mcp__everything__get-structured-content", { location: "Paris" })).rejects.toThrow(/\/location/);
	});

	it("an error result from the server becomes an error the model reads", async () => {
		const mcp = shared();
		const sum = mcp.tools().find((tool) => tool.name === "mcp__everything__get-sum")!;
		// Past loom's own check, as a tool whose schema says less than the server checks would be.
		await expect(sum.execute("call", { a: "two", b: 3 } as never, undefined)).rejects.toThrow(/Input validation error/);
	});

	it("shows progress while a long operation runs", async () => {
		const mcp = shared();
		const updates: string[] = [];
		const result = await mcp.call("mcp__everything__trigger-long-running-operation", { duration: 0.6, steps: 3 }, { updates });
		// The last step's progress may come after its answer, when nobody listens any more.
		expect(updates.slice(0, 2)).toEqual(["progress 1/3", "progress 2/3"]);
		expect(resultText(result)).toBe("Long running operation completed. Duration: 0.6 seconds, Steps: 3.");
	});

	it("an aborted call ends at once and the server is told to cancel it; the server goes on serving", async () => {
		const mcp = shared();
		const abort = new AbortController();
		const updates: string[] = [];
		const call = mcp.call("mcp__everything__trigger-long-running-operation", { duration: 30, steps: 100 }, { signal: abort.signal, updates });
		await waitFor(() => updates.length > 0, Boolean, { what: "the first progress" });
		const started = Date.now();
		abort.abort();
		await expect(call).rejects.toThrow("The call was cancelled; MCP server everything was told so.");
		expect(Date.now() - started).toBeLessThan(1000);
		const request = recordedMessages(log)
			.filter((message) => message.params?.name === "trigger-long-running-operation")
			.at(-1);
		expect(request.params.arguments).toEqual({ duration: 30, steps: 100 });
		await waitFor(() => recordedMessages(log).find((message) => message.method === "notifications/cancelled"), Boolean, { what: "the cancellation" });
		expect(recordedMessages(log).find((message) => message.method === "notifications/cancelled").params.requestId).toBe(request.id);
		expect(resultText(await mcp.call("mcp__everything__echo", { message: "still here" }))).toBe("Echo: still here");
	});

	it("a call that gets neither an answer nor progress within the server's timeout fails and is cancelled", async () => {
		const mcp = shared();
		await expect(mcp.call("mcp__timed__trigger-long-running-operation", { duration: 5, steps: 1 })).rejects.toThrow(
			"MCP server timed sent no answer or progress for 400 ms, so the call was cancelled (its timeout is set in the server's configuration).",
		);
		await waitFor(() => recordedMessages(timedLog).some((message) => message.method === "notifications/cancelled"), Boolean, { what: "the cancellation" });
	});

	it("progress keeps a long call within its timeout", async () => {
		const mcp = shared();
		const result = await mcp.call("mcp__patient__trigger-long-running-operation", { duration: 1.5, steps: 5 });
		expect(resultText(result)).toContain("completed");
	});

	it("a prompt waiting for a slow server says so after a while, naming the servers still starting", async () => {
		const go = join(tempDir(), "go");
		const entry = (everythingStdio().args as string[])[0];
		const mcp = startServers(
			{ slow: { command: "sh", args: ["-c", `while [ ! -e '${go}' ]; do sleep 0.05; done; exec '${process.execPath}' '${entry}' stdio`] }, fast: everythingStdio() },
			{ quietWaitMs: 100 },
		);
		await waitFor(() => mcp.servers.connections[1]!.state === "ready", Boolean, { what: "the fast server" });
		const waiting = mcp.ready();
		await waitFor(() => mcp.notices.length > 0, Boolean, { what: "the notice" });
		expect(mcp.notices).toEqual([{ level: "info", text: "Waiting for MCP servers to start: slow." }]);
		writeFileSync(go, "");
		await waiting;
		expect(mcp.tools().some((tool) => tool.name === "mcp__slow__echo")).toBe(true);
	});

	it("enables only the tools --tools names, and does not start a server it names none of", async () => {
		const dir = tempDir();
		const mcp = startServers(
			{ everything: everythingStdio(), other: everythingWithPid(join(dir, "other.pid")) },
			{ toolPatterns: ["read", "mcp__everything__echo", "mcp__everything__get-s*"] },
		);
		await mcp.ready();
		expect(mcp.tools().map((tool) => tool.name)).toEqual(["read", "mcp__everything__echo", "mcp__everything__get-structured-content", "mcp__everything__get-sum"]);
		expect(mcp.servers.connections[1]!.state).toBe("closed");
	});
});

describe("server-filesystem over stdio", () => {
	it("lists and reads within its allowed directory, and its refusal outside it reaches the model as an error", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "notes.txt"), "first line\nsecond line\n");
		const mcp = startServers({ fs: filesystemStdio([dir]) });
		await mcp.ready();
		expect(resultText(await mcp.call("mcp__fs__list_directory", { path: dir }))).toBe("[FILE] notes.txt");
		expect(resultText(await mcp.call("mcp__fs__read_text_file", { path: join(dir, "notes.txt") }))).toBe("first line\nsecond line\n");
		await expect(mcp.call("mcp__fs__read_text_file", { path: "/etc/hostname" })).rejects.toThrow(/Access denied/);
		expect(mcp.tools().find((tool) => tool.name === "mcp__fs__read_text_file")!.readOnly).toBe(true);
		expect(mcp.tools().find((tool) => tool.name === "mcp__fs__write_file")!.readOnly).toBeUndefined();
	});
});

describe("a server that sends what the SDK would refuse", () => {
	it("an output schema that cannot be compiled does not keep its tools away; structured content is shown as JSON", async () => {
		const mcp = startServers({ odd: oddServerStdio() });
		await mcp.ready();
		expect(mcp.notices).toEqual([]);
		expect(JSON.parse(resultText(await mcp.call("mcp__odd__weather", { city: "Oslo" })))).toEqual({ city: "Oslo", code: "sunny" });
	});
});

describe("a server that fails", () => {
	it("a command that does not exist is reported once, naming the server and the command; it has no tools", async () => {
		const mcp = startServers({ nope: { command: "no-such-mcp-server-command" }, everything: everythingStdio() });
		await mcp.ready();
		expect(mcp.notices).toEqual([{ level: "error", text: expect.stringMatching(/^MCP server nope failed to start: command not found: no-such-mcp-server-command/) }]);
		expect(mcp.servers.connections[0]!.state).toBe("failed");
		expect(mcp.tools().some((tool) => tool.name.startsWith("mcp__nope__"))).toBe(false);
		expect(mcp.tools().some((tool) => tool.name === "mcp__everything__echo")).toBe(true);
	});

	it("a server that exits at once is reported with its exit code and the end of its stderr", async () => {
		const mcp = startServers({ crashy: { command: process.execPath, args: ["-e", "console.error('config file missing: ~/.crashy'); process.exit(3)"] } });
		await mcp.ready();
		expect(mcp.notices).toHaveLength(1);
		expect(mcp.notices[0]!.text).toBe("MCP server crashy failed to start: the server exited with code 3; its stderr ends: config file missing: ~/.crashy");
	});

	it("a server that never answers is given up after its startup timeout, and its process is ended", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "pid");
		const mcp = startServers({ mute: { command: "sh", args: ["-c", `echo $$ > '${pidFile}'; exec sleep 300`], startupTimeout: 300 } });
		const pid = await waitForPid(pidFile);
		await mcp.ready();
		expect(mcp.notices[0]!.text).toMatch(/^MCP server mute failed to start: no answer to the initialize request within 300 ms/);
		expect(await processesGone([pid])).toBe(true);
	});

	it("a server that dies is reported once; its tools say so, and the next call starts it again, at most a few times", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "pid");
		const mcp = startServers({ everything: everythingWithPid(pidFile) });
		await mcp.ready();
		for (let restart = 1; restart <= MAX_RESTARTS; restart++) {
			const pid = await waitForPid(pidFile);
			writeFileSync(pidFile, "");
			process.kill(pid, "SIGKILL");
			await waitFor(() => mcp.servers.connections[0]!.state === "failed", Boolean, { what: "the death to be noticed" });
			expect(mcp.notices.at(-1)).toEqual({
				level: "warning",
				text: "MCP server everything stopped: the server was killed by SIGKILL; its stderr ends: Starting default (STDIO) server.... Its tools answer with an error until it is started again, on their next call.",
			});
			expect(mcp.tools().some((tool) => tool.name === "mcp__everything__echo")).toBe(true);
			expect(resultText(await mcp.call("mcp__everything__echo", { message: `after death ${restart}` }))).toBe(`Echo: after death ${restart}`);
		}
		expect(mcp.notices).toHaveLength(MAX_RESTARTS);
		process.kill(await waitForPid(pidFile), "SIGKILL");
		await waitFor(() => mcp.servers.connections[0]!.state === "failed", Boolean, { what: "the last death to be noticed" });
		await expect(mcp.call("mcp__everything__echo", { message: "once more" })).rejects.toThrow(
			`MCP server everything is not running (the server was killed by SIGKILL; its stderr ends: Starting default (STDIO) server...). It was restarted ${MAX_RESTARTS} times already, so loom does not start it again; /mcp restart everything tries once more.`,
		);
	});

	it("a call in progress when the server dies fails saying so", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "pid");
		const mcp = startServers({ everything: everythingWithPid(pidFile) });
		await mcp.ready();
		const updates: string[] = [];
		const call = mcp.call("mcp__everything__trigger-long-running-operation", { duration: 30, steps: 100 }, { updates });
		await waitFor(() => updates.length > 0, Boolean, { what: "the first progress" });
		process.kill(await waitForPid(pidFile), "SIGKILL");
		await expect(call).rejects.toThrow("MCP server everything stopped during the call (the server was killed by SIGKILL; its stderr ends: Starting default (STDIO) server...). It is started again on the next call.");
	});
});

describe("the processes of stdio servers", () => {
	it("run in a group of their own: what a server started ends when the server dies", async () => {
		const dir = tempDir();
		const mcp = startServers({ everything: everythingWithPid(join(dir, "pid"), join(dir, "helper.pid")) });
		await mcp.ready();
		const [server, helper] = [await waitForPid(join(dir, "pid")), await waitForPid(join(dir, "helper.pid"))];
		expect(isAlive(helper)).toBe(true);
		process.kill(server, "SIGKILL");
		expect(await processesGone([helper])).toBe(true);
	});

	it("end, with everything they started, when the servers are closed", async () => {
		const dir = tempDir();
		const mcp = startServers({ everything: everythingWithPid(join(dir, "pid"), join(dir, "helper.pid")) });
		await mcp.ready();
		const [server, helper] = [await waitForPid(join(dir, "pid")), await waitForPid(join(dir, "helper.pid"))];
		expect(serverProcessGroups.tracked()).toContain(server);
		await mcp.servers.close();
		expect(isAlive(server)).toBe(false);
		expect(await processesGone([helper])).toBe(true);
		expect(serverProcessGroups.tracked()).not.toContain(server);
		expect(mcp.notices).toEqual([]);
	});
});

describe("/mcp", () => {
	async function run(command: ReturnType<typeof mcpCommand>, args: string): Promise<string[]> {
		const said: string[] = [];
		await command.handler(args, { session: undefined, busy: false, notify: (level, text) => said.push(`${level}: ${text}`) });
		return said;
	}

	it("lists every server with its state, transport, source and tools; --tools' choices are marked", async () => {
		const mcp = startServers(
			{
				everything: everythingStdio(),
				off: { command: "x", disabled: true },
				needs: { command: "x", env: { K: "${LOOM_TEST_NOT_SET}" } },
				local: everythingStdio(),
				unnamed: everythingStdio(),
			},
			{ projectServers: ["local"], trusted: false, toolPatterns: ["mcp__everything__echo", "mcp__off__*", "mcp__needs__*", "mcp__local__*"] },
		);
		await mcp.ready();
		expect(mcp.notices).toEqual([
			{
				level: "error",
				text: "MCP server needs was not started: ${LOOM_TEST_NOT_SET} is not set in the environment: set it, or give a default like ${LOOM_TEST_NOT_SET:-default} (test config).",
			},
		]);
		const [text, ...rest] = await run(mcpCommand(mcp.servers, tempDir()), "");
		expect(rest).toEqual([]);
		const lines = text!.split("\n");
		expect(lines[0]).toBe("info: MCP servers:");
		expect(lines[1]).toBe("  everything · ready · stdio · test config");
		expect(lines[2]).toMatch(/^ {4}\d+ tools \(mcp__everything__\*\): echo, get-annotated-message \(off: --tools\), /);
		expect(lines.slice(3)).toEqual([
			"  off · disabled in its configuration · stdio · test config",
			"  needs · not started: ${LOOM_TEST_NOT_SET} is not set in the environment: set it, or give a default like ${LOOM_TEST_NOT_SET:-default} · test config",
			"  local · not started: the project is not trusted · stdio · test config",
			"  unnamed · not started: --tools names none of its tools · stdio · test config",
		]);
	});

	it("restart <server> starts a server again; it refuses a server that cannot start or does not exist", async () => {
		const dir = tempDir();
		const mcp = startServers({ everything: everythingWithPid(join(dir, "pid")), off: { command: "x", disabled: true } });
		await mcp.ready();
		const first = await waitForPid(join(dir, "pid"));
		writeFileSync(join(dir, "pid"), "");
		const command = mcpCommand(mcp.servers, tempDir());
		expect(await run(command, "restart everything")).toEqual([expect.stringMatching(/^info: MCP server everything is ready: \d+ tools\.$/)]);
		const second = await waitForPid(join(dir, "pid"));
		expect(second).not.toBe(first);
		expect(await processesGone([first])).toBe(true);
		expect(await run(command, "restart off")).toEqual(["error: MCP server off cannot be started: disabled in its configuration."]);
		expect(await run(command, "restart github")).toEqual(["error: No MCP server is named github; configured: everything, off."]);
		expect(await run(command, "stop everything")).toEqual(["error: Usage: /mcp (list the servers), /mcp restart <server> or /mcp login <server>."]);
		expect(mcp.notices).toEqual([]);
	});

	it("a project's servers wait for trust, and start once it is given", async () => {
		const mcp = startServers({ local: everythingStdio(), mine: { command: "x", disabled: true } }, { projectServers: ["local", "mine"], trusted: false });
		await mcp.ready();
		expect(mcp.servers.projectServers.map((connection) => connection.name)).toEqual(["local"]);
		expect(mcp.servers.connections[0]!.state).toBe("untrusted");
		expect(mcp.tools().map((tool) => tool.name)).toEqual(["read"]);
		mcp.servers.startProject();
		await mcp.ready();
		expect(mcp.servers.connections[0]!.state).toBe("ready");
		expect(resultText(await mcp.call("mcp__local__echo", { message: "trusted" }))).toBe("Echo: trusted");
	});
});
