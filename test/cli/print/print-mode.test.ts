// End to end: `loom` in print mode against the scripted model server. The built binary for a whole run, piped stdin,
// the answer into a pipe and the bash tool's environment (the process's own); in-process through the CLI's I/O seam,
// what its arguments, files and the model's answers make of a run (@files, errors and retries, edits, --no-session,
// --tools, the system prompt, --max-turns, a cut or empty answer) and its refusals to start.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../../support/temp-dir.js";
import { runLoomInProcess } from "../../support/loom-in-process.js";
import { runLoom, serverFlags, sessionFiles, useScriptedServer } from "../../support/loom-process.js";

const server = useScriptedServer();

function lastUserText(index: number): string {
	const messages = server.requests[index]!.body.messages;
	const user = messages.filter((m: any) => m.role === "user").at(-1);
	return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text ?? "").join("");
}

describe("loom -p (text mode)", () => {
	it("prints the final answer and exits 0, with nothing on stderr", async () => {
		server.enqueue({ text: "The answer is 42." });
		const ws = workspace();
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "what", "is", "the", "answer?"], ws);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("The answer is 42.\n");
		expect(lastUserText(0)).toBe("what is the answer?");
		expect(sessionFiles(ws.home)).toHaveLength(1);
	});

	it("joins piped stdin to the prompt, and implies print mode", async () => {
		server.enqueue({ text: "Reviewed." });
		const ws = workspace();
		const result = await runLoom([...serverFlags(server.openaiBaseUrl), "review this"], { ...ws, input: "diff --git a/x b/x\n+added line\n" });
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("Reviewed.\n");
		expect(lastUserText(0)).toBe("review this\n\ndiff --git a/x b/x\n+added line");
	});

	it("inlines @file arguments: text as a file block, images as image content", async () => {
		server.enqueue({ text: "seen" });
		const ws = workspace();
		writeFileSync(join(ws.cwd, "notes.md"), "# Notes\nremember the milk\n");
		// A 1x1 PNG.
		const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000000000200015e2a2c0b0000000049454e44ae426082", "hex");
		writeFileSync(join(ws.cwd, "pic.png"), png);
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "@notes.md", "@pic.png", "summarise"], ws);
		expect(result.code).toBe(0);
		const user = server.requests[0]!.body.messages.find((m: any) => m.role === "user");
		const parts = Array.isArray(user.content) ? user.content : [{ type: "text", text: user.content }];
		const text = parts.filter((p: any) => p.type === "text").map((p: any) => p.text).join("");
		expect(text).toContain(`<file name="${join(ws.cwd, "notes.md")}">\n# Notes\nremember the milk\n</file>`);
		expect(text.trimEnd().endsWith("summarise")).toBe(true);
		const image = parts.find((p: any) => p.type === "image_url");
		expect(image.image_url.url).toBe(`data:image/png;base64,${png.toString("base64")}`);
	});

	it("exits 1 when the model ends in an error, with the error on stderr", async () => {
		server.enqueue({ status: 400, errorMessage: "bad request from the scripted server" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], workspace());
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/bad request from the scripted server/);
		expect(result.stderr).not.toContain("test-key");
	});

	it("says at the first failure to reach a server that is not running that it will retry, and how often, before the error", async () => {
		const ws = workspace();
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ retry: { maxRetries: 2 } }));
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const result = await runLoomInProcess(["-p", ...serverFlags(`http://127.0.0.1:${port}/v1`), "hi"], ws);
		expect(result.code).toBe(1);
		const lines = result.stderr.trim().split("\n");
		expect(lines[0]).toMatch(/^loom: connection failed; retrying up to 2 times over about \d+s \(the first in \d+s\)\.$/);
		expect(lines[1]).toMatch(/^loom: connection failed; retry 2\/2 in \d+s\.$/);
		expect(lines.at(-1)).toMatch(/Could not connect to openai at http:\/\/127\.0\.0\.1:\d+\/v1.*gave up after 2 retries/);
	}, 60_000);

	it("keeps a server's escape sequences off stderr", async () => {
		server.enqueue({ status: 400, errorMessage: "bad \u001b]2;title\u0007request \u001b[31mfrom\u001b[0m the server" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], workspace());
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/bad request from the server/);
		expect(result.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
	});

	it("passes the answer into a pipe exactly as the model wrote it, escape sequences included", async () => {
		const answer = "plain \u001b[1mbold\u001b[0m\tand a tab";
		server.enqueue({ text: answer });
		const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "hi"], workspace());
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`${answer}\n`);
	});

	it("runs the bash tool's commands in the user's environment: NODE_ENV as the user set it, or unset", async () => {
		const command = "echo node-env-${NODE_ENV:-unset}";
		const toolText = (request: number) => server.requests[request]!.body.messages.find((m: any) => m.role === "tool").content;
		for (const [env, expected] of [[{}, "node-env-unset"], [{ NODE_ENV: "staging" }, "node-env-staging"]] as const) {
			server.reset();
			server.enqueue({ toolCalls: [{ id: "b", name: "bash", arguments: { command } }] }, { text: "done" });
			const result = await runLoom(["-p", ...serverFlags(server.openaiBaseUrl), "run it"], { ...workspace(), env });
			expect(result.code).toBe(0);
			expect(toolText(1)).toContain(expected);
		}
	});

	it("edits a file through a scripted edit call", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "greeting.txt"), "hello world\nsecond line\n");
		server.enqueue(
			{ toolCalls: [{ name: "edit", arguments: { path: "greeting.txt", edits: [{ oldText: "hello world", newText: "goodbye world" }] } }] },
			{ text: "Edited." },
		);
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "change the greeting"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("Edited.\n");
		expect(readFileSync(join(ws.cwd, "greeting.txt"), "utf8")).toBe("goodbye world\nsecond line\n");
		const toolMessage = server.requests[1]!.body.messages.find((m: any) => m.role === "tool");
		expect(JSON.stringify(toolMessage.content)).not.toMatch(/error/i);
	});

	it("keeps nothing on disk with --no-session", async () => {
		server.enqueue({ text: "fine" });
		const ws = workspace();
		const result = await runLoomInProcess(["-p", "--no-session", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(result.code).toBe(0);
		expect(sessionFiles(ws.home)).toEqual([]);
	});

	it("offers only the tools asked for", async () => {
		server.enqueue({ text: "a" }, { text: "b" });
		const ws = workspace();
		await runLoomInProcess(["-p", "--tools", "read,edit", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		await runLoomInProcess(["-p", "--no-tools", ...serverFlags(server.openaiBaseUrl), "hi"], ws);
		expect(server.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual(["read", "edit"]);
		expect(server.requests[1]!.body.tools ?? []).toEqual([]);
	});

	it("builds the system prompt from the default, flags and context files", async () => {
		server.enqueue({ text: "a" }, { text: "b" }, { text: "c" });
		const ws = workspace();
		writeFileSync(join(ws.home, "AGENTS.md"), "Global rule: be kind.");
		writeFileSync(join(ws.cwd, "CLAUDE.md"), "Project rule: use tabs.");
		const system = (index: number) => server.requests[index]!.body.messages[0].content as string;

		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "--append-system-prompt", "Answer in French.", "hi"], ws);
		expect(system(0)).toMatch(/^You are loom/);
		expect(system(0)).toContain(`## ${join(ws.home, "AGENTS.md")}\n\nGlobal rule: be kind.`);
		expect(system(0)).toContain(`## ${join(ws.cwd, "CLAUDE.md")}\n\nProject rule: use tabs.`);
		expect(system(0)).toContain("Answer in French.");
		expect(system(0)).toContain(`Working directory: ${ws.cwd}`);

		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "--no-context-files", "hi"], ws);
		expect(system(1)).not.toContain("Project rule");

		await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "--system-prompt", "You are a parrot.", "hi"], ws);
		expect(system(2)).toMatch(/^You are a parrot\./);
		expect(system(2)).not.toContain("You are loom");
	});

	it("stops after --max-turns and says so on stderr", async () => {
		server.setDefaultTurn({ toolCalls: [{ name: "read", arguments: { path: "missing.txt" } }] });
		const result = await runLoomInProcess(["-p", "--max-turns", "2", ...serverFlags(server.openaiBaseUrl), "loop"], workspace());
		expect(result.code).toBe(0);
		expect(server.requests).toHaveLength(2);
		expect(result.stderr).toMatch(/stopped after 2 model turns/);
	});

	it("prints an answer cut at the model's output limit, and says on stderr that it was cut", async () => {
		server.enqueue({ text: "The first half of", stopReason: "length" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "write a lot"], workspace());
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("The first half of\n");
		expect(result.stderr).toMatch(/cut off at the model's output limit/);
	});

	it("exits 0 on an empty final answer but says on stderr that the model returned no text", async () => {
		server.enqueue({ text: "" });
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "say nothing"], workspace());
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("");
		expect(result.stderr).toBe("loom: the model returned no text.\n");
	});
});

// Refusals before any request: about arguments and configuration, so run in-process (loom-in-process.ts).
describe("loom -p refusing to start", () => {
	it("rejects a missing @file as a usage error (exit 2)", async () => {
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl), "@nope.txt", "hi"], workspace());
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/@nope\.txt: no such file/);
		expect(server.requests).toHaveLength(0);
	});

	it("exits 2 without a prompt in print mode", async () => {
		const result = await runLoomInProcess(["-p", ...serverFlags(server.openaiBaseUrl)], workspace());
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/No prompt/);
	});

	it("exits 2 on an unknown flag, naming it", async () => {
		const result = await runLoomInProcess(["-p", "--frobnicate", "hi"], workspace());
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/unknown option '--frobnicate'/);
		expect(result.stdout).toBe("");
	});

	it("exits 2 on a bad flag value", async () => {
		const ws = workspace();
		expect((await runLoomInProcess(["-p", "--tools", "read,fly", "hi"], ws)).stderr).toMatch(/unknown tool fly/);
		expect((await runLoomInProcess(["-p", "--thinking", "max", "hi"], ws)).code).toBe(2);
		expect((await runLoomInProcess(["-p", "--max-turns", "0", "hi"], ws)).code).toBe(2);
		expect((await runLoomInProcess(["-p", "-c", "--no-session", "hi"], ws)).code).toBe(2);
	});

	it("exits 1 without an API key, naming the variable to set", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["-p", "--provider", "openai", "--base-url", server.openaiBaseUrl, "hi"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/OPENAI_API_KEY/);
		expect(result.stderr.trim().split("\n")).toHaveLength(1);
		expect(server.requests).toHaveLength(0);
		expect(sessionFiles(ws.home)).toEqual([]);
		const anthropic = await runLoomInProcess(["-p", "--provider", "anthropic", "hi"], ws);
		expect(anthropic.code).toBe(1);
		expect(anthropic.stderr).toMatch(/ANTHROPIC_API_KEY/);
	});
});
