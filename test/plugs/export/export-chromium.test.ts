// The exported page as a reader sees it, in headless Chromium: a real session (the scripted model thinks, edits a
// file, runs bash, writes HTML of its own) exported with /export; the text is there, thinking is folded, nothing
// the model wrote runs, and opening the page sends no request anywhere.
import { createServer, type Server } from "node:http";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../../src/core/session/index.js";
import { installExport } from "../../../src/plugs/export/export-session.js";
import { createCodingTools } from "../../../src/tools/index.js";
import { chromiumBinary, dumpDom, screenshot } from "../../support/headless-chromium.js";
import { writeTree } from "../../support/project-tree.js";
import { scriptedSessionOptions } from "../../support/scripted-session.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const model = useScriptedServer();

/** A server the page would reach if it loaded anything from the model's markup. */
let trap: Server;
const requests: string[] = [];
let trapUrl = "";
beforeAll(async () => {
	trap = createServer((request, response) => {
		requests.push(request.url ?? "");
		response.end("x");
	});
	await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
	const address = trap.address();
	trapUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => trap?.close());

describe.skipIf(!chromiumBinary())("the exported page in headless Chromium", () => {
	it("shows the conversation, folds thinking, runs nothing the model wrote and requests nothing", async () => {
		const { cwd, home } = workspace();
		writeTree(cwd, { "src/parse.ts": "const last = tokens.pop;\n" });
		const session = new AgentSession(scriptedSessionOptions(model, cwd, home, { tools: createCodingTools(cwd), systemPrompt: "test" }));
		installExport(session);
		const hostile = [
			"Fixed. <script>document.body.setAttribute('data-pwned', 'yes')</script>",
			`<img src="${trapUrl}/img.png" onerror="document.body.setAttribute('data-pwned','img')">`,
			`<link rel="stylesheet" href="${trapUrl}/style.css"> <iframe src="${trapUrl}/frame"></iframe>`,
			`![chart](${trapUrl}/chart.png) [docs](${trapUrl}/docs)`,
			"",
			"| check | result |",
			"|---|---|",
			"| tests | **pass** |",
		].join("\n");
		model.enqueue(
			{ thinking: "The SECRET-PLAN is to add the call parentheses.", toolCalls: [{ id: "e", name: "edit", arguments: { path: "src/parse.ts", edits: [{ oldText: "tokens.pop;", newText: "tokens.pop();" }] } }] },
			{ toolCalls: [{ id: "b", name: "bash", arguments: { command: "echo tests passed: 3" } }] },
			{ text: hostile },
		);
		expect((await session.runPrompt("Fix the **parser**")).status).toBe("done");

		const notices: string[] = [];
		await session.commands.get("export")!.handler("page.html", { session, notify: (_level, text) => notices.push(text), busy: false });
		const page = join(cwd, "page.html");
		expect(notices).toEqual([`Exported the conversation to ${page}`]);

		const dom = await dumpDom(page);
		const png = join(cwd, "page.png");
		await screenshot(page, png);

		// What a reader sees.
		expect(dom).toContain("<strong>parser</strong>");
		expect(dom).toContain("tests passed: 3");
		expect(dom).toContain('<span class="added">+const last = tokens.pop();</span>');
		expect(dom).toContain("<td><strong>pass</strong></td>");
		expect(dom).toMatch(/<dt>Tokens<\/dt><dd>[^<]+ in \(/);
		// Thinking is there but folded: its <details> is not open.
		expect(dom).toMatch(/<details class="thinking"><summary>Thinking<\/summary><div class="md"><p>The SECRET-PLAN/);
		// Nothing the model wrote ran or loaded.
		expect(dom).not.toMatch(/<body[^>]*data-pwned/);
		expect(dom).not.toMatch(/<(script|iframe|link)\b/i);
		expect(dom).toContain("&lt;script&gt;");
		expect(requests).toEqual([]);
		expect(existsSync(png) && statSync(png).size).toBeGreaterThan(10_000);
		session.dispose();
	});
});
