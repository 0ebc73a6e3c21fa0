// The exported page as markup: self-contained (inline style, no script, a policy that forbids every request),
// the model's HTML shown as text, thinking folded, tool calls with arguments, output and diffs, and totals.
import { describe, expect, it } from "vitest";
import type { AssistantMessage, ToolResultMessage } from "../../../src/core/index.js";
import { SessionStore } from "../../../src/core/session/index.js";
import { renderSessionHtml } from "../../../src/plugs/export/session-html.js";
import { builtinTools } from "../../support/builtin-tools.js";
import { tempDir } from "../../support/temp-dir.js";
import { assistant, usage } from "../../tui/events.js";

function answer(content: AssistantMessage["content"], [input, output, cost]: [number, number, number]): AssistantMessage {
	return assistant(content, { api: "openai-completions", provider: "openai", model: "gpt-test", usage: usage(input, output, cost) });
}

function result(id: string, name: string, text: string, details?: unknown, isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], details, isError, timestamp: 0 };
}

function sampleSession(): SessionStore {
	const store = SessionStore.create({ home: tempDir(), cwd: "/work/app", persist: false });
	store.append({ type: "message", message: { role: "user", content: "Fix the **parser** please", timestamp: 0 } });
	store.append({
		type: "message",
		message: answer(
			[
				{ type: "thinking", thinking: "The parser drops the last token." },
				{ type: "text", text: 'Done. <script>document.body.setAttribute("data-pwned", "yes")</script> <img src=x onerror="alert(1)"> [docs](javascript:alert(2)) ![chart](http://example.invalid/chart.png)' },
				{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "src/parse.ts", edits: [{ oldText: "a", newText: "b" }] } },
				{ type: "toolCall", id: "b1", name: "bash", arguments: { command: "npm test" } },
			],
			[1200, 300, 0.0123],
		),
	});
	store.append({ type: "message", message: result("e1", "edit", "Edited src/parse.ts", { diff: "--- a\n+++ b\n@@ -1 +1 @@\n-const last = tokens.pop;\n+const last = tokens.pop();\n" }) });
	store.append({ type: "message", message: result("b1", "bash", "FAIL parse.test.ts\nexpected 3, got 2", undefined, true) });
	store.append({ type: "message", message: answer([{ type: "text", text: "All green now." }], [1500, 50, 0.01]) });
	return store;
}

describe("the exported page", () => {
	const store = sampleSession();
	const html = renderSessionHtml({ header: store.header, entries: store.entries, tools: builtinTools, exportedAt: new Date("2026-01-02T03:04:05Z") });

	it("shows a file attached to a prompt as a folded attachment with its name and size, not as <file> markup", () => {
		const attached = SessionStore.create({ home: tempDir(), cwd: "/work/app", persist: false });
		const text = '<file name="/work/app/notes.md">\n# Notes\nremember <b>milk</b>\n</file>\n\n<file name="/work/app/shot.png">(image attached)</file>\n\nexplain @notes.md';
		attached.append({ type: "message", message: { role: "user", content: [{ type: "text", text }], typed: "explain @notes.md", timestamp: 0 } as never });
		const page = renderSessionHtml({ header: attached.header, entries: attached.entries, tools: builtinTools, exportedAt: new Date(0) });
		expect(page).not.toContain("&lt;file name=");
		expect(page).toContain('<details class="attachment"><summary>Attached /work/app/notes.md · ');
		expect(page).toContain("<pre># Notes\nremember &lt;b&gt;milk&lt;/b&gt;</pre></details>");
		expect(page).toContain('<p class="attachment">Attached image /work/app/shot.png</p>');
		expect(page).toContain("explain @notes.md");
		expect(page).toContain("<title>loom · explain @notes.md</title>");
	});

	it("is self-contained: inline style, no script element, a policy that allows no request", () => {
		expect(html).toMatch(/^<!doctype html>/);
		expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;`);
		expect(html).not.toMatch(/<script/i);
		expect(html).not.toMatch(/<link /i);
		expect(html).not.toMatch(/src="(?!data:)/);
	});

	it("shows the model's HTML as text, links only to web addresses, and names images instead of loading them", () => {
		expect(html).toContain('&lt;script&gt;document.body.setAttribute("data-pwned", "yes")&lt;/script&gt;');
		expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
		expect(html).not.toContain('href="javascript:');
		expect(html).toContain("[image: chart — http://example.invalid/chart.png]");
		expect(html).toContain("<strong>parser</strong>");
	});

	it("folds thinking away and shows each tool call with its arguments, diff and output", () => {
		expect(html).toContain('<details class="thinking"><summary>Thinking</summary>');
		expect(html).toContain('<span class="tool-name">edit</span> <code>src/parse.ts</code>');
		expect(html).toContain("&quot;command&quot;: &quot;npm test&quot;");
		expect(html).toContain('<span class="removed">-const last = tokens.pop;</span>');
		expect(html).toContain('<span class="added">+const last = tokens.pop();</span>');
		expect(html).toMatch(/<section class="tool failed">.*<span class="status">error<\/span>.*FAIL parse\.test\.ts/s);
	});

	it("gives the token and cost totals and each answer's own", () => {
		expect(html).toContain("<dt>Tokens</dt><dd>2.7k in (0 cached) · 350 out</dd>");
		expect(html).toContain("<dt>Cost</dt><dd>$0.02</dd>");
		expect(html).toContain("1.2k in · 300 out · $0.01 · openai/gpt-test");
		expect(html).toContain("<dt>Directory</dt><dd>/work/app</dd>");
	});

	it("numbers an answer's web sources as links under it, only web addresses linked", () => {
		const searched = SessionStore.create({ home: tempDir(), cwd: "/work/app", persist: false });
		const message = answer([{ type: "text", text: "Node 20 came out in April 2023." }], [10, 10, 0]);
		message.search = { queries: ["node 20 <release>"], sources: [{ url: "https://nodejs.org/en/blog", title: "Node <blog>" }, { url: "https://example.org/x" }] };
		searched.append({ type: "message", message });
		const page = renderSessionHtml({ header: searched.header, entries: searched.entries, tools: builtinTools });
		expect(page).toContain('<div class="sources"><p class="searched">Searched: node 20 &lt;release&gt;</p><ol><li><a href="https://nodejs.org/en/blog" rel="noreferrer noopener">Node &lt;blog&gt;</a></li><li><a href="https://example.org/x" rel="noreferrer noopener">https://example.org/x</a></li></ol></div>');
	});

	it("names each entry so a fork can start from it", () => {
		const prompt = store.entries[0]!.id;
		expect(html).toContain(`id="e-${prompt}"`);
		expect(html).toContain(`>#${prompt}</a>`);
	});
});

describe("tool results in the exported page", () => {
	it("go with a call of the message before them, also when the server reuses call ids across turns", () => {
		const store = SessionStore.create({ home: tempDir(), cwd: "/work/app", persist: false });
		const call = (command: string) => answer([{ type: "toolCall", id: "call_0", name: "bash", arguments: { command } }], [10, 5, 0]);
		store.append({ type: "message", message: { role: "user", content: "build", timestamp: 0 } });
		store.append({ type: "message", message: call("make") });
		store.append({ type: "message", message: result("call_0", "bash", "make: *** no rule", undefined, true) });
		store.append({ type: "message", message: call("ls") });
		store.append({ type: "message", message: result("call_0", "bash", "Makefile.in") });
		const html = renderSessionHtml({ header: store.header, entries: store.entries, tools: builtinTools, exportedAt: new Date("2026-01-02T03:04:05Z") });
		const sections = [...html.matchAll(/<section class="tool( failed)?">(.*?)<\/section>/gs)].map(([, failed, body]) => ({
			failed: failed !== undefined,
			command: /<code>(.*?)<\/code>/.exec(body!)?.[1],
			output: body!.includes("make: *** no rule") ? "no rule" : body!.includes("Makefile.in") ? "Makefile.in" : "none",
		}));
		expect(sections).toEqual([
			{ failed: true, command: "make", output: "no rule" },
			{ failed: false, command: "ls", output: "Makefile.in" },
		]);
	});
});
