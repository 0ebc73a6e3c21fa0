// End to end in a real terminal: the model starts a node server as a background shell, reaches it from a later
// bash call, reads its log with bash_output, then asks the user a question with ask_user; the picker's answer
// reaches the model, the footer counts the shell, /bashes lists it, and after /quit no process of it remains.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRunning } from "../support/process-state.js";
import { useLoomInTmux } from "../support/loom-in-tmux.js";
import { hasTmux } from "../support/tmux-terminal.js";

const HTTP_SERVER = `const http = require("node:http");
const s = http.createServer((req, res) => { console.log("served " + req.url); res.end("hello back"); });
s.listen(0, "127.0.0.1", () => console.log("listening on " + s.address().port + " pid " + process.pid));
`;

describe.skipIf(!hasTmux())("background shells and questions in a terminal (tmux)", () => {
	const { server, workspace, open } = useLoomInTmux("loom-long-tasks");

	it("serves from the background, asks the user, and leaves no process after /quit", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "server.js"), HTTP_SERVER);
		let pid = 0;
		let step: "start" | "fetch" | "read" | "ask" | "answer" = "start";
		const results: string[] = [];
		server.setResponder((body) => {
			const last = String(body.messages.at(-1)?.content ?? "");
			if (body.messages.at(-1)?.role === "tool") results.push(last);
			if (step === "start" && body.messages.at(-1)?.role === "user") {
				return { toolCalls: [{ name: "bash", arguments: { command: "node server.js", background: true } }] };
			}
			const listening = /listening on (\d+) pid (\d+)/.exec(last);
			if (step === "start" && !listening) return { toolCalls: [{ name: "bash_output", arguments: { id: "bg1", wait: 30 } }] };
			if (step === "start") {
				step = "fetch";
				pid = Number(listening![2]);
				const fetch = `node -e "fetch('http://127.0.0.1:${listening![1]}/hello').then((r) => r.text()).then(console.log)"`;
				return { toolCalls: [{ name: "bash", arguments: { command: fetch } }] };
			}
			if (step === "fetch") {
				step = "read";
				return { toolCalls: [{ name: "bash_output", arguments: { id: "bg1", wait: 30 } }] };
			}
			if (step === "read") {
				step = "ask";
				return { toolCalls: [{ name: "ask_user", arguments: { question: "The server works. What now?", choices: ["Keep it running", "Add a route"] } }] };
			}
			step = "answer";
			return { text: `Noted: ${last}` };
		});
		// The server and the later call share the host's loopback (with the sandbox's network closed each has its own).
		const { terminal } = open({ workspace: ws, args: ["--sandbox", "off"] });
		await terminal.waitForScreen((text) => text.includes("Ask loom"), "the editor");
		await terminal.typeLine("start the server");

		let text = await terminal.waitForScreen((t) => t.includes("The agent asks") && t.includes("Add a route"), "the question");
		expect(text).toContain("The server works. What now?");
		expect(text).toContain("Type my own answer");
		expect(text).toContain("1 shell (/bashes)");
		terminal.sendKeys("Down");
		await terminal.waitForScreen((t) => /› \[a\] Add a route/.test(t), "the second choice selected");
		terminal.sendKeys("Enter");
		text = await terminal.waitForScreen((t) => t.includes("Noted: The user chose: Add a route") && t.includes("ready"), "the model's answer");
		expect(results).toContain("hello back");
		expect(results).toContain("Background shell bg1 is running.\n\nserved /hello");
		expect(isRunning(pid)).toBe(true);

		await terminal.typeLine("/bashes");
		text = await terminal.waitForScreen((t) => t.includes("Background shells") && /bg1\s+running/.test(t), "the list of shells");
		expect(text).toContain("node server.js");
		terminal.sendKeys("Escape");
		await terminal.waitForScreen((t) => t.includes("Ask loom"), "the editor again");

		await terminal.typeLine("/quit");
		await terminal.waitForScreen((t) => t.includes("[loom exited with 0]"), "loom exiting");
		await expect.poll(() => isRunning(pid)).toBe(false);
	});
});
