// Background shells through a whole session on the scripted model server: a server started with bash's
// `background: true` answers a later bash call, bash_output reads what it logged since, and disposing the
// session leaves none of its processes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive } from "../../src/core/index.js";
import { scriptedSdkSession } from "../support/sdk-session.js";
import { workspace } from "../support/temp-dir.js";
import { useScriptedServer } from "../support/use-scripted-server.js";

const server = useScriptedServer();

/** A node http server on a free port that says where it listens and logs each request. */
const HTTP_SERVER = `const http = require("node:http");
const s = http.createServer((req, res) => { console.log("served " + req.url); res.end("hello back"); });
s.listen(0, "127.0.0.1", () => console.log("listening on " + s.address().port + " pid " + process.pid));
`;

const toolResults = () =>
	server.requests.at(-1)?.body.messages.filter((message: any) => message.role === "tool").map((message: any) => String(message.content)) ?? [];

describe("background shells in a session", () => {
	it("runs a server in the background that a later bash call reaches, reads its new output, and kills it with the session", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "server.js"), HTTP_SERVER);
		// With the sandbox's network closed each command has a loopback of its own (README, "Sandbox"): the server and
		// the later call share the host's here.
		const { session } = await scriptedSdkSession(server, { sandbox: "off" }, ws);
		const changes: number[] = [];
		session.subscribe((event) => {
			if (event.type === "background_shells_changed") changes.push(event.shells.filter((shell) => shell.status === "running").length);
		});

		// The server may take its time to say where it listens: the model waits for that line with bash_output.
		let port = "";
		let pid = 0;
		let phase: "starting" | "fetching" | "reading" | "done" = "starting";
		server.setResponder((body, index) => {
			if (index === 0) return { toolCalls: [{ id: "start", name: "bash", arguments: { command: "node server.js", background: true } }] };
			const last = String(body.messages.at(-1)?.content);
			const match = /listening on (\d+) pid (\d+)/.exec(last);
			if (phase === "starting" && !match) return { toolCalls: [{ id: `wait${index}`, name: "bash_output", arguments: { id: "bg1", wait: 30 } }] };
			if (phase === "starting") {
				[port, pid] = [match![1]!, Number(match![2])];
				phase = "fetching";
				return { toolCalls: [{ id: "fetch", name: "bash", arguments: { command: `node -e "fetch('http://127.0.0.1:${port}/hello').then((r) => r.text()).then(console.log)"` } }] };
			}
			if (phase === "fetching") {
				expect(last).toBe("hello back");
				phase = "reading";
				return { toolCalls: [{ id: "read", name: "bash_output", arguments: { id: "bg1", wait: 30 } }] };
			}
			phase = "done";
			expect(last).toBe("Background shell bg1 is running.\n\nserved /hello");
			return { text: "the server works" };
		});
		await session.prompt("start the server and try it");

		expect(phase).toBe("done");
		expect(toolResults()[0]).toMatch(/^Background shell bg1 is running\. Read what it prints next with bash_output/);
		expect(session.backgroundShells).toMatchObject([{ id: "bg1", command: "node server.js", status: "running" }]);
		expect(changes).toContain(1);
		expect(isAlive(pid)).toBe(true);

		session.dispose();
		await expect.poll(() => isAlive(pid)).toBe(false);
	});

	it("bounds a read like bash's output; bash_kill stops the shell's whole process group; an unknown id names the known ones", async () => {
		const { session } = await scriptedSdkSession(server);
		server.enqueue(
			{ toolCalls: [{ id: "start", name: "bash", arguments: { command: "seq 1 3000 > lines.txt && cat lines.txt; sleep 300 & sleep 300; echo never", background: true } }] },
			{ toolCalls: [{ id: "kill", name: "bash_kill", arguments: { id: "bg1" } }] },
			{ toolCalls: [{ id: "again", name: "bash_output", arguments: { id: "bg7" } }] },
			{ text: "stopped" },
		);
		// cat writes the 3000 lines at once, so the first read holds them all however busy the machine is.
		await session.prompt("start and stop");
		const [started, killed, unknown] = toolResults();
		expect(started).toMatch(/\n2999\n3000\n\n\[Output cut: showing the last 2000 lines \(.*\) of .*\. Full output: \S+\]$/);
		expect(started).not.toMatch(/^1000$/m);
		expect(killed).toBe("Background shell bg1 was stopped.\n\n(no new output)");
		expect(unknown).toBe("No background shell bg7; this session's are bg1.");
		expect(session.backgroundShells).toMatchObject([{ id: "bg1", status: "killed" }]);
		session.dispose();
	});
});
