// A new tool is one file (fixtures/word-count.ts) plus one line in the list of built-in tools, and nothing else:
// the session offers it and its guide and rules to the model, the screen's reducer shows its row from its own
// summary and result lines, compaction lists the file it read, and --tools accepts its name.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters as strip } from "node:util";
import { describe, expect, it } from "vitest";
import { AgentSession, type SessionEvent } from "../../src/core/session/index.js";
import type { ToolDefinition } from "../../src/core/index.js";
import { ToolCatalog } from "../../src/sdk/tool-catalog.js";
import { BUILTIN_TOOLS, createBuiltinTools } from "../../src/tools/index.js";
import { reduceView } from "../../src/tui/screen/reducer.js";
import { transcriptText } from "../../src/tui/transcript/transcript-text.js";
import { initialView, type ScreenView } from "../../src/tui/transcript/view-model.js";
import { systemOf } from "../core/session/compaction/server-model.js";
import { scriptedSessionOptions } from "../support/scripted-session.js";
import { useScriptedServer } from "../support/use-scripted-server.js";
import { createWordCountTool } from "./fixtures/word-count.js";
import { tempDir } from "../support/temp-dir.js";

const server = useScriptedServer();

/** The list of built-in tools with the new tool's one line added. */
const TOOLS_WITH_WORD_COUNT = [...BUILTIN_TOOLS, { name: "wc", create: createWordCountTool, byDefault: true }];

/** The tools `--tools <names>` enables among `known` (without names: `defaults`), as the session's assembly does. */
function selectTools(known: ToolDefinition[], names: string[] | undefined, defaults: ToolDefinition[] = known): ToolDefinition[] {
	const catalog = new ToolCatalog(known, names, defaults);
	catalog.checkChoice();
	return catalog.enabled();
}

async function sessionWith(names: string[]) {
	const cwd = tempDir();
	const home = tempDir();
	writeFileSync(path.join(cwd, "notes.txt"), "three little words\nand four more here\n");
	const { known } = createBuiltinTools(cwd, TOOLS_WITH_WORD_COUNT);
	const session = new AgentSession(scriptedSessionOptions(server, cwd, home, { tools: selectTools(known, names), knownTools: known }));
	// The screen's subscription: every event through the pure reducer.
	let view: ScreenView = initialView();
	const events: SessionEvent[] = [];
	session.subscribe((event) => {
		events.push(event);
		view = reduceView(view, event, 1000);
	});
	return { session, events, view: () => view };
}

describe("a tool added as one file and one line in the list of tools", () => {
	it("reaches the model with its guide and rules, and the screen shows its row as the tool describes it", async () => {
		const { session, view } = await sessionWith(["read", "word_count"]);
		server.enqueue({ toolCalls: [{ name: "word_count", arguments: { path: "notes.txt" } }] }, { text: "7 words." });
		expect((await session.runPrompt("how long are my notes?")).status).toBe("done");

		const request = server.requests[0]!;
		expect(request.body.tools.map((tool: any) => tool.function.name)).toEqual(["read", "word_count"]);
		const prompt = systemOf(request);
		expect(prompt).toContain("- word_count: count the words and lines of a file before summarising it\n");
		expect(prompt).toContain("- Say how many words a file has when you summarise it.");
		expect(prompt).not.toContain("Long explanation");

		const batch = view().transcript.find((item) => item.kind === "tools");
		if (batch?.kind !== "tools") throw new Error("no tool row in the transcript");
		expect(batch.runs.map((run) => [run.name, run.status, run.argsPreview])).toEqual([["word_count", "done", "words in notes.txt"]]);
		const rows = strip(transcriptText([batch], 80, false, session.tools)).trim().split("\n");
		expect(rows).toEqual([expect.stringMatching(/^✓ word_count words in notes\.txt /), "  7 words, 2 lines"]);
		session.dispose();
	});

	it("its calls count in compaction's file lists, through the definition", async () => {
		const { session, events } = await sessionWith(["word_count"]);
		server.enqueue({ toolCalls: [{ name: "word_count", arguments: { path: "notes.txt" } }] }, { text: "7 words." }, { text: "## Goal\nCount words" });
		await session.runPrompt("count");
		await session.compact();
		const end = events.find((event) => event.type === "compaction_end");
		expect(end).toMatchObject({ aborted: false });
		expect(end?.type === "compaction_end" && end.summary).toContain("## Files read\n- notes.txt");
		session.dispose();
	});

	it("--tools accepts its name, and an unknown name lists every known tool", async () => {
		const { known, defaults } = createBuiltinTools("/", TOOLS_WITH_WORD_COUNT);
		expect(selectTools(known, ["word_count", "bash"]).map((tool) => tool.name)).toEqual(["bash", "word_count"]);
		expect(selectTools(known, undefined, defaults).map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write", "bash_output", "bash_kill", "ask_user", "todo_write", "word_count"]);
		expect(() => selectTools(known, ["word_count", "fly"])).toThrow("tools: unknown tool fly; choose from read,bash,edit,write,grep,find,ls,bash_output,bash_kill,ask_user,todo_write,web_fetch,web_search,lsp,word_count.");
	});
});
