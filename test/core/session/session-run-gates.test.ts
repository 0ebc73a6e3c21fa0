// What a prompt waits for before its run (tools still arriving: MCP servers starting).
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../../src/core/index.js";
import { AgentSession } from "../../../src/core/session/index.js";
import { scriptedSessionOptions } from "../../support/scripted-session.js";
import { tempDir } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { sleep } from "../../support/wait-for.js";

const server = useScriptedServer();

const arriving: ToolDefinition = {
	name: "mcp__late__tool",
	label: "late",
	description: "A tool whose server was still starting.",
	parameters: Type.Object({}),
	execute: async () => ({ content: [{ type: "text", text: "late" }], details: undefined }),
};

function makeSession() {
	return new AgentSession(scriptedSessionOptions(server, "/project", tempDir()));
}

function toolNames(index: number): string[] {
	return (server.requests[index]!.body.tools ?? []).map((tool: any) => tool.function.name);
}

describe("run gates", () => {
	it("a prompt waits at each gate, and starts its run with the tools that arrived meanwhile", async () => {
		const session = makeSession();
		session.addRunGate(async () => {
			await sleep(200);
			session.setTools([...session.tools, arriving]);
		});
		const started = Date.now();
		expect((await session.runPrompt("hi")).status).toBe("done");
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
		expect(toolNames(0)).toEqual(["mcp__late__tool"]);
	});

	it("an abort ends the wait at once and nothing is sent", async () => {
		const session = makeSession();
		session.addRunGate((signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve())));
		const running = session.runPrompt("hi");
		await sleep(50);
		const started = Date.now();
		await session.abort();
		expect((await running).status).toBe("aborted");
		expect(Date.now() - started).toBeLessThan(500);
		expect(server.requests).toHaveLength(0);
	});

	it("disposing of the session ends the wait, and nothing is sent", async () => {
		const session = makeSession();
		session.addRunGate((signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve())));
		const running = session.runPrompt("hi");
		await sleep(50);
		session.dispose();
		expect((await running).status).toBe("aborted");
		expect(server.requests).toHaveLength(0);
	});

	it("a gate that fails is passed, and a removed gate is not waited for", async () => {
		const session = makeSession();
		session.addRunGate(async () => {
			throw new Error("the server fell over");
		});
		const remove = session.addRunGate(() => new Promise(() => {}));
		remove();
		expect((await session.runPrompt("hi")).status).toBe("done");
	});
});
