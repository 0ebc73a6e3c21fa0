// /export as a user types it: without a file it writes loom-session-<short id>.html in the working directory and says
// where; with one, relative to the working directory.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../../src/core/session/index.js";
import { installExport } from "../../../src/plugs/export/export-session.js";
import { scriptedSessionOptions } from "../../support/scripted-session.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const model = useScriptedServer();

/** Runs /export with `args`, after one prompt and its answer unless `empty`. */
async function exported(args: string, { empty = false } = {}): Promise<{ cwd: string; session: AgentSession; notices: string[] }> {
	const { cwd, home } = workspace();
	const session = new AgentSession(scriptedSessionOptions(model, cwd, home, { systemPrompt: "test" }));
	installExport(session);
	if (!empty) {
		model.enqueue({ text: "All set." });
		expect((await session.runPrompt("say hello")).status).toBe("done");
	}
	const notices: string[] = [];
	await session.commands.get("export")!.handler(args, { session, notify: (_level, text) => notices.push(text), busy: false });
	return { cwd, session, notices };
}

describe("/export", () => {
	it("without a file writes loom-session-<short id>.html in the working directory and names it", async () => {
		const { cwd, session, notices } = await exported("");
		const page = join(cwd, `loom-session-${session.sessionId.slice(0, 8)}.html`);
		expect(notices).toEqual([`Exported the conversation to ${page}`]);
		const html = readFileSync(page, "utf8");
		expect(html).toContain("say hello");
		expect(html).toContain("All set.");
	});

	it("with no message yet says there is nothing to export and writes no page of a session that has no file", async () => {
		const { cwd, notices } = await exported("page.html", { empty: true });
		expect(notices).toEqual(["Nothing to export yet: the conversation has no messages."]);
		expect(existsSync(join(cwd, "page.html"))).toBe(false);
	});

	it("with a file writes there, relative to the working directory", async () => {
		const { cwd, notices } = await exported("notes/../chat.html");
		expect(notices).toEqual([`Exported the conversation to ${join(cwd, "chat.html")}`]);
		expect(readFileSync(join(cwd, "chat.html"), "utf8")).toContain("All set.");
	});
});
