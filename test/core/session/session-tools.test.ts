// A session's tools: the definitions it exposes, setTools (new tools and a rebuilt system prompt for the next
// request), per-tool settings, and the definitions compaction asks after the tools change.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../../src/core/index.js";
import { AgentSession, type AgentSessionOptions, type SessionEvent } from "../../../src/core/session/index.js";
import { scriptedSessionOptions } from "../../support/scripted-session.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { systemOf } from "./compaction/server-model.js";
import { tempDir } from "../../support/temp-dir.js";

const server = useScriptedServer();

function tool(name: string, parts: Partial<ToolDefinition> = {}): ToolDefinition {
	return {
		name,
		label: name,
		description: `The ${name} tool. More about it.`,
		parameters: Type.Object({ path: Type.String() }),
		async execute(_id, params: { path: string }) {
			return { content: [{ type: "text", text: `${name} ${params.path}` }], details: {} };
		},
		...parts,
	};
}

const look = tool("look", { promptGuide: "look at a file", promptRules: ["Look before you leap."], fileEffects: (args: any) => ({ reads: [args.path], changes: [] }) });
const poke = tool("poke", { promptGuide: "poke a file", executionMode: "sequential" });

function makeSession(overrides: Partial<AgentSessionOptions> = {}) {
	const session = new AgentSession(scriptedSessionOptions(server, "/project", tempDir(), { tools: [look], ...overrides }));
	const events: SessionEvent[] = [];
	session.subscribe((event) => {
		events.push(event);
	});
	return { session, events };
}

const date = new Date("2025-02-03T10:00:00Z");
const contextFiles = [{ path: "/project/AGENTS.md", content: "Be kind." }];

describe("AgentSession tools", () => {
	it("builds the system prompt from its prompt parts and tools, and setTools rebuilds it for the next request", async () => {
		const { session } = makeSession({ prompt: { appendPrompt: "Answer in French.", contextFiles, date } });
		expect(session.tools.map((t) => t.name)).toEqual(["look"]);
		server.enqueue({ text: "one" }, { text: "two" });
		await session.runPrompt("first");

		session.setTools([poke]);
		expect(session.tools.map((t) => t.name)).toEqual(["poke"]);
		await session.runPrompt("second");

		const [before, after] = server.requests.map(systemOf);
		expect(before).toContain("- look: look at a file\n");
		expect(before).toContain("- Look before you leap.");
		expect(after).toContain("- poke: poke a file\n");
		expect(after).not.toContain("look");
		for (const kept of ["Answer in French.", "## /project/AGENTS.md\n\nBe kind.", "Working directory: /project", "Today's date: 2025-02-03"]) {
			expect(before).toContain(kept);
			expect(after).toContain(kept);
		}
		expect(server.requests.map((request) => request.body.tools.map((t: any) => t.function.name))).toEqual([["look"], ["poke"]]);
		session.dispose();
	});

	it("keeps a custom prompt, which replaces loom's tool list and rules, through setTools", () => {
		const { session } = makeSession({ prompt: { customPrompt: "You are a pirate.", date } });
		session.setTools([poke]);
		expect(session.agent.state.systemPrompt).toMatch(/^You are a pirate\.\n\nWorking directory: \/project\nToday's date: 2025-02-03$/);
		session.dispose();
	});

	it("uses a finished systemPrompt as is, whatever the tools", () => {
		const { session } = makeSession({ systemPrompt: "Fixed." });
		session.setTools([poke]);
		expect(session.agent.state.systemPrompt).toBe("Fixed.");
		expect(session.agent.state.tools.map((t) => t.name)).toEqual(["poke"]);
		session.dispose();
	});

	it("refuses two tools of one name, leaving the tools as they were", () => {
		const { session } = makeSession();
		expect(() => session.setTools([poke, tool("poke")])).toThrow("Two tools are named poke");
		expect(session.tools.map((t) => t.name)).toEqual(["look"]);
		session.dispose();
	});

	it("applies per-tool settings to the tools it starts with and to tools set later", () => {
		const { session } = makeSession({ tools: [poke], toolSettings: { poke: { executionMode: "parallel" }, look: { executionMode: "sequential" } } });
		expect(session.tools[0]!.executionMode).toBe("parallel");
		expect(poke.executionMode).toBe("sequential");
		session.setTools([look, poke]);
		expect(session.agent.state.tools.map((t) => [t.name, t.executionMode])).toEqual([
			["look", "sequential"],
			["poke", "parallel"],
		]);
		session.dispose();
	});

	it("compaction still lists the files of a tool that was disabled after its calls", async () => {
		const { session, events } = makeSession({ prompt: { date } });
		server.enqueue({ toolCalls: [{ name: "look", arguments: { path: "notes.md" } }] }, { text: "looked" }, { text: "## Goal\nLook" });
		await session.runPrompt("look at my notes");
		session.setTools([poke]);
		await session.compact();
		const end = events.find((event) => event.type === "compaction_end");
		expect(end?.type === "compaction_end" && end.summary).toContain("## Files read\n- notes.md");
		session.dispose();
	});
});
