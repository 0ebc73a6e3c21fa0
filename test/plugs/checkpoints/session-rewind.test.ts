// /rewind, /tree and /fork on a real session: the scripted model changes files with write, edit and bash, the
// checkpoints installed on the session record the work tree, and the commands put files and conversation back.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installCheckpoints } from "../../../src/plugs/checkpoints/install-checkpoints.js";
import type { SessionEvent } from "../../../src/core/index.js";
import { AgentSession, loadSessionFile } from "../../../src/core/session/index.js";
import { installExport } from "../../../src/plugs/export/export-session.js";
import { createCodingTools } from "../../../src/tools/index.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { scriptedSessionOptions } from "../../support/scripted-session.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";
import { waitFor } from "../../support/wait-for.js";
import { writeTree } from "../../support/project-tree.js";
import { treeState } from "./checkpoint-fixtures.js";

const server = useScriptedServer();

function openProject(files: Record<string, string>) {
	const { cwd, home } = workspace();
	writeTree(cwd, files);
	const session = new AgentSession(scriptedSessionOptions(server, cwd, home, { tools: createCodingTools(cwd), systemPrompt: "test" }));
	installCheckpoints(session, { home });
	const ui = new ScriptedUi();
	session.setUi(ui);
	const notices: { level: string; text: string }[] = [];
	let editor: string | undefined;
	return {
		cwd,
		home,
		session,
		ui,
		notices,
		editor: () => editor,
		read: (path: string) => readFileSync(join(cwd, path), "utf8"),
		async command(name: string, args = "") {
			const definition = session.commands.get(name)!;
			await definition.handler(args, { session, notify: (level, text) => notices.push({ level, text }), busy: session.isStreaming, ui, setEditorText: (text) => (editor = text) });
		},
		texts: () => session.messages.map((message) => (message.role === "user" ? String(message.content) : message.role)),
	};
}

/** The model changes files three ways in one prompt, then answers. */
function changeFilesTurns() {
	server.enqueue(
		{
			toolCalls: [
				{ id: "w", name: "write", arguments: { path: "src/new.ts", content: "export {};\n" } },
				{ id: "e", name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "one", newText: "ONE" }] } },
			],
		},
		{ toolCalls: [{ id: "b", name: "bash", arguments: { command: `sed -i 's/bee/BEE/' b.txt && rm gone.txt && mkdir -p out && echo built > out/app.js` } }] },
		{ text: "changed" },
	);
}

describe("/rewind on a real session", () => {
	it("restores files changed by write, edit and bash, and takes the conversation back to before the prompt", async () => {
		const project = openProject({ "a.txt": "one\n", "b.txt": "bee\n", "gone.txt": "x\n" });
		const before = treeState(project.cwd);
		server.enqueue({ text: "hello" });
		await project.session.runPrompt("first");
		changeFilesTurns();
		expect((await project.session.runPrompt("change things")).status).toBe("done");
		expect(project.read("a.txt")).toBe("ONE\n");
		expect(project.read("b.txt")).toBe("BEE\n");

		project.ui.choose("change things", "Restore files and conversation");
		await project.command("rewind");

		expect(project.ui.asked.map((question) => question.title)).toEqual(["Rewind to before which prompt?", "What goes back?"]);
		expect(project.ui.asked[0]!.shown).toEqual([expect.stringMatching(/^change things — \d{4}-/), expect.stringMatching(/^first — /)]);
		expect(treeState(project.cwd)).toEqual(before);
		expect(project.texts()).toEqual(["first", "assistant"]);
		expect(project.editor()).toBe("change things");
		expect(project.notices.at(-1)!.text).toMatch(/Files: 2 restored, 1 recreated, 2 deleted \(a\.txt, b\.txt, gone\.txt, out\/app\.js, src\/new\.ts\)/);

		// Append-only: the abandoned exchange is still in the file, after it a branch entry.
		const file = await loadSessionFile(project.session.sessionFile!);
		expect(file.entries.filter((entry) => entry.type === "message")).toHaveLength(2 + 7);
		expect(file.entries.at(-1)).toMatchObject({ type: "branch" });

		// The next prompt goes on from "first" and its answer only.
		server.enqueue({ text: "again" });
		await project.session.runPrompt("something else");
		const sent = server.requests.at(-1)!.body.messages.filter((message: { role: string }) => message.role === "user");
		expect(sent.map((message: { content: unknown }) => JSON.stringify(message.content))).toEqual([
			expect.stringContaining("first"),
			expect.stringContaining("something else"),
		]);
		project.session.dispose();
	});

	it("asks before overwriting a file the user changed after the agent, and keeps it on a no", async () => {
		const project = openProject({ "a.txt": "one\n", "b.txt": "bee\n", "gone.txt": "x\n" });
		changeFilesTurns();
		await project.session.runPrompt("change things");
		writeTree(project.cwd, { "a.txt": "my own fix\n" });

		project.ui.choose("change things", "Files only").answer(false);
		await project.command("rewind");

		const confirm = project.ui.asked.find((question) => question.kind === "confirm")!;
		expect(confirm.title).toBe("Overwrite your changes?");
		expect(confirm.shown[0]).toMatch(/not by the agent: a\.txt\./);
		expect(project.read("a.txt")).toBe("my own fix\n");
		expect(project.read("b.txt")).toBe("bee\n");
		expect(project.read("gone.txt")).toBe("x\n");
		expect(project.notices.at(-1)!.text).toContain("Kept as you left them: a.txt.");
		// Files only: the conversation is as it was.
		expect(project.texts()).toEqual(["change things", "assistant", "toolResult", "toolResult", "assistant", "toolResult", "assistant"]);
		project.session.dispose();
	});

	it("goes back in the conversation only, leaving the files as the agent left them", async () => {
		const project = openProject({ "a.txt": "one\n", "b.txt": "bee\n", "gone.txt": "x\n" });
		changeFilesTurns();
		await project.session.runPrompt("change things");
		const after = treeState(project.cwd);
		project.ui.choose("change things", "Conversation only");
		await project.command("rewind");
		expect(treeState(project.cwd)).toEqual(after);
		expect(project.texts()).toEqual([]);
		project.session.dispose();
	});
});

describe("/rewind's preview", () => {
	it("names the files it restores, recreates and deletes before asking what goes back, and does exactly that", async () => {
		const project = openProject({ "a.txt": "one\n", "b.txt": "bee\n", "gone.txt": "x\n" });
		changeFilesTurns();
		await project.session.runPrompt("change things");

		project.ui.choose("change things", "Restore files and conversation");
		await project.command("rewind");

		const scope = project.ui.asked.find((question) => question.title === "What goes back?")!;
		expect(scope.options.body!.map((line) => line.text)).toEqual([
			"Before: change things",
			"If the files go back:",
			"  restores a.txt, b.txt",
			"  recreates gone.txt",
			"  deletes out/app.js, src/new.ts (created by the agent)",
		]);
		expect(project.notices.at(-1)!.text).toMatch(/Files: 2 restored, 1 recreated, 2 deleted/);
		project.session.dispose();
	});

	it("in a session, never deletes the user's ignored files after the agent's bash rewrote .gitignore, and says it keeps them", async () => {
		const project = openProject({ ".gitignore": ".env\nsecrets/\n", ".env": "TOKEN=mine\n", "secrets/prod.key": "key\n", "a.txt": "one\n" });
		server.enqueue(
			{ toolCalls: [{ id: "b", name: "bash", arguments: { command: "printf 'dist/\\n' > .gitignore && echo two > a.txt" } }] },
			{ text: "done" },
		);
		expect((await project.session.runPrompt("tidy the ignores")).status).toBe("done");
		expect(project.read(".gitignore")).toBe("dist/\n");

		project.ui.choose("tidy the ignores", "Files only");
		await project.command("rewind");

		const body = project.ui.asked.find((question) => question.title === "What goes back?")!.options.body!.map((line) => line.text);
		expect(body.join("\n")).not.toMatch(/deletes/);
		expect(body.join("\n")).toMatch(/leaves \.env, secrets\/ as they are/);
		expect([project.read(".env"), project.read("secrets/prod.key"), project.read("a.txt"), project.read(".gitignore")]).toEqual([
			"TOKEN=mine\n",
			"key\n",
			"one\n",
			".env\nsecrets/\n",
		]);
		project.session.dispose();
	});
});

/** A session that branched: "first" answered, then `left` answered, rewound (conversation only) and `asked` instead. */
async function branchedProject(left: string, asked: string) {
	const project = openProject({ "a.txt": "one\n" });
	server.enqueue({ text: "A1" }, { text: "A2" });
	await project.session.runPrompt("first");
	await project.session.runPrompt(left);
	project.ui.choose(left, "Conversation only");
	await project.command("rewind");
	server.enqueue({ text: "A2'" });
	await project.session.runPrompt(asked);
	return project;
}

describe("/tree and /fork on a real session", () => {
	it("/tree switches back to the branch a rewind left, and /fork goes on in a new file naming its parent", async () => {
		const project = await branchedProject("second", "second, differently");
		expect(project.texts()).toEqual(["first", "assistant", "second, differently", "assistant"]);

		project.ui.choose(/second$/);
		await project.command("tree");
		expect(project.ui.asked.at(-1)!.shown.map((row) => row.split(" — ")[0])).toEqual(["first", "├─ second", "└─ ● second, differently"]);
		expect(project.texts()).toEqual(["first", "assistant", "second", "assistant"]);
		// Only the conversation moves: the files are left as they are, and the user is told so.
		expect(project.notices.at(-1)).toEqual({ level: "info", text: "Switched the conversation only: the files stay as they are." });

		const parent = project.session.sessionFile!;
		const parentId = project.session.sessionId;
		const parentBytes = readFileSync(parent);
		const opened: SessionEvent[] = [];
		project.session.subscribe((event) => void (event.type === "session_open" && opened.push(event)));
		project.ui.choose("Before: second");
		await project.command("fork");
		expect(project.session.sessionFile).not.toBe(parent);
		expect(project.session.parentSessionFile).toBe(parent);
		// Written at once, with the conversation it copied, and announced with its id, file and parent.
		expect((await loadSessionFile(project.session.sessionFile!)).entries.filter((entry) => entry.type === "message")).toHaveLength(2);
		expect(opened.at(-1)).toMatchObject({ reason: "fork", sessionId: project.session.sessionId, file: project.session.sessionFile, saved: true, parentSession: parent });
		expect(project.notices.at(-1)).toEqual({ level: "info", text: `/resume ${parentId} goes back to the session it was forked from.` });
		expect(project.texts()).toEqual(["first", "assistant"]);
		expect(project.editor()).toBe("second");
		server.enqueue({ text: "in the fork" });
		await project.session.runPrompt("forked prompt");
		expect(readFileSync(parent)).toEqual(parentBytes);
		const forked = await loadSessionFile(project.session.sessionFile!);
		expect(forked.header.parentSession).toBe(parent);
		expect(forked.entries.filter((entry) => entry.type === "message")).toHaveLength(4);
		project.session.dispose();
	});

	it("/fork with no message yet forks nothing, rather than a session from a file that does not exist", async () => {
		const project = openProject({ "a.txt": "one\n" });
		const id = project.session.sessionId;
		await project.command("fork");
		expect(project.notices).toEqual([{ level: "info", text: "Nothing to fork yet: the conversation has no messages." }]);
		expect(project.session.sessionId).toBe(id);
		expect(project.ui.asked).toEqual([]);
		project.session.dispose();
	});

	it("/export of a session that branched writes the current branch and says how many others the file holds", async () => {
		const project = await branchedProject("left behind", "asked instead");
		installExport(project.session);
		await project.command("export", "page.html");
		const html = readFileSync(join(project.cwd, "page.html"), "utf8");
		expect(html).toContain("asked instead");
		expect(html).not.toContain("left behind");
		expect(html).toContain("<dt>Branch</dt><dd>the current one; the session holds 1 other (/tree in loom switches to it)</dd>");
		project.session.dispose();
	});

	it("/tree right after a rewind shows the branch it left beside where the conversation is; switching sends exactly that branch next", async () => {
		const project = openProject({ "a.txt": "one\n" });
		server.enqueue({ text: "A1" }, { text: "A2" }, { text: "A3" });
		await project.session.runPrompt("first");
		await project.session.runPrompt("second");
		await project.session.runPrompt("third");
		project.ui.choose("second", "Conversation only");
		await project.command("rewind");
		expect(project.session.messageCount).toBe(2);

		project.ui.choose(/third/);
		await project.command("tree");
		const asked = project.ui.asked.at(-1)!;
		expect(asked.title).toBe("Switch to which branch? (its newest message)");
		// Each branch's length is said once, on the row that ends it.
		expect(asked.shown.map((row) => row.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/, "<time>"))).toEqual([
			"first — <time>",
			"├─ second — <time>",
			"│  third — 6 messages · <time>",
			"└─ ● (here: the next prompt starts this branch) — 2 messages · <time> · you are here",
		]);
		expect(project.texts()).toEqual(["first", "assistant", "second", "assistant", "third", "assistant"]);

		// The next request holds that branch's conversation, and only it.
		server.enqueue({ text: "A4" });
		await project.session.runPrompt("fourth");
		const text = (content: unknown) => (typeof content === "string" ? content : (content as { text?: string }[]).map((part) => part.text ?? "").join(""));
		const sent = server.requests.at(-1)!.body.messages.filter((message: { role: string }) => message.role !== "system");
		expect(sent.map((message: { role: string; content: unknown }) => `${message.role}: ${text(message.content)}`)).toEqual([
			"user: first",
			"assistant: A1",
			"user: second",
			"assistant: A2",
			"user: third",
			"assistant: A3",
			"user: fourth",
		]);
		project.session.dispose();
	});
});

describe("disposing the session", () => {
	it("takes the checkpoint link off and drops this session's index in the shadow repository", async () => {
		const project = openProject({ "a.txt": "one\n" });
		server.enqueue({ toolCalls: [{ id: "w", name: "write", arguments: { path: "b.txt", content: "two\n" } }] }, { text: "done" });
		await project.session.runPrompt("write b");
		const indexes = join(project.home, "checkpoints", readdirSync(join(project.home, "checkpoints"))[0]!, "indexes");
		expect(readdirSync(indexes)).toHaveLength(1);
		expect(project.session.hooks.before.snapshot().map((link) => link.name)).toContain("checkpoint");
		project.session.dispose();
		expect(project.session.hooks.before.snapshot().map((link) => link.name)).not.toContain("checkpoint");
		await waitFor(() => readdirSync(indexes), (left) => left.length === 0, { what: "the session's index to be dropped" });
	});
});
