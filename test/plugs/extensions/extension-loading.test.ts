// Extension files on disk: TypeScript and JavaScript (ES modules and CommonJS) from loom home's extensions folder
// and from given paths, loaded without a build step; broken files reported with their path while the rest load.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExtensionFactory } from "../../../src/plugs/extensions/extension-api.js";
import { SessionOptionError } from "../../../src/sdk/session-option-error.js";
import { ScriptedUi } from "../../support/scripted-ui.js";
import { scriptedSdkSession } from "../../support/sdk-session.js";
import { writeFileAt } from "../../support/project-tree.js";
import { workspace } from "../../support/temp-dir.js";
import { useScriptedServer } from "../../support/use-scripted-server.js";

const server = useScriptedServer();

/** An extension registering the command `name`, in the syntax of `kind`. */
function commandExtension(name: string, kind: "ts" | "esm" | "cjs"): string {
	const body = `loom.registerCommand("${name}", { description: "from ${kind}", handler: () => {} });`;
	if (kind === "cjs") return `module.exports = function (loom) { ${body} };\n`;
	if (kind === "esm") return `export default function (loom) { ${body} }\n`;
	return `import type { ExtensionAPI } from "loom";\ninterface Named { name: string }\nconst it: Named = { name: "${name}" };\nexport default function (loom: ExtensionAPI): void {\n\tloom.registerCommand(it.name, { description: "from ts", handler: () => {} });\n}\n`;
}

const commandNames = (session: { commands: { list(): { name: string; source?: string }[] } }) =>
	session.commands
		.list()
		.filter((command) => command.source === "extension")
		.map((command) => command.name);

describe("extension files", () => {
	it("loads TypeScript, ES module and CommonJS files and folders with an index from loom home, by name, then the given paths", async () => {
		const ws = workspace();
		const folder = join(ws.home, "extensions");
		writeFileAt(join(folder, "b-esm.mjs"), commandExtension("esm-module", "esm"));
		writeFileAt(join(folder, "a-typed.ts"), commandExtension("typed", "ts"));
		writeFileAt(join(folder, "c-common.cjs"), commandExtension("common", "cjs"));
		writeFileAt(join(folder, "d-plain.js"), commandExtension("plain-js", "esm"));
		writeFileAt(join(folder, "e-folder", "index.ts"), commandExtension("folder", "ts"));
		writeFileAt(join(folder, "notes.txt"), "not an extension");
		writeFileAt(join(folder, "types.d.ts"), "export type X = number;\n");
		writeFileAt(join(folder, ".hidden.ts"), "throw new Error('never loaded');\n");
		writeFileAt(join(ws.cwd, "tools", "local.ts"), commandExtension("given-file", "ts"));
		writeFileAt(join(ws.cwd, "bundle", "index.js"), commandExtension("given-folder", "esm"));

		const { session, extensions, ui } = await scriptedSdkSession(server, { extensions: ["tools/local.ts", join(ws.cwd, "bundle")] }, ws);

		expect(extensions.failed).toEqual([]);
		expect(extensions.loaded).toEqual([
			join(folder, "a-typed.ts"),
			join(folder, "b-esm.mjs"),
			join(folder, "c-common.cjs"),
			join(folder, "d-plain.js"),
			join(folder, "e-folder", "index.ts"),
			join(ws.cwd, "tools", "local.ts"),
			join(ws.cwd, "bundle"),
		]);
		expect(commandNames(session)).toEqual(["typed", "esm-module", "common", "plain-js", "folder", "given-file", "given-folder"]);
		expect(ui.noticeLines()).toEqual([]);
		session.dispose();
	});

	it("gives an extension loom's own modules by name: its types, TypeBox, and values from the package", async () => {
		const ws = workspace();
		writeFileAt(
			join(ws.home, "extensions", "tool.ts"),
			`import { Type, type ExtensionAPI } from "loom";
import { Type as TypeBox } from "@sinclair/typebox";
export default function (loom: ExtensionAPI) {
	loom.registerTool({
		name: "shout",
		label: "Shout",
		description: "Says a word loudly.",
		parameters: Type.Object({ word: TypeBox.String() }),
		async execute(_id, params) {
			return { content: [{ type: "text", text: params.word.toUpperCase() }], details: undefined };
		},
	});
}
`,
		);
		const { session } = await scriptedSdkSession(server, {}, ws);
		server.enqueue({ toolCalls: [{ id: "s", name: "shout", arguments: { word: "hey" } }] }, { text: "done" });
		await session.prompt("shout hey");
		expect(server.requests[1]!.body.messages.find((message: any) => message.role === "tool").content).toBe("HEY");
		session.dispose();
	});

	it("reports a broken file of a folder with its path and why, removes what it registered, and loads the others", async () => {
		const ws = workspace();
		const folder = join(ws.home, "extensions");
		const syntax = writeFileAt(join(folder, "1-syntax.ts"), "export default function (loom {\n");
		const noDefault = writeFileAt(join(folder, "2-no-default.ts"), "export const helper = 1;\n");
		const throws = writeFileAt(
			join(folder, "3-throws.js"),
			'export default function (loom) {\n\tloom.registerCommand("half-done", { description: "x", handler: () => {} });\n\tthrow new Error("missing config");\n}\n',
		);
		const topLevel = writeFileAt(join(folder, "4-top-level.mjs"), 'throw new Error("boom at import");\nexport default () => {};\n');
		writeFileAt(join(folder, "5-good.ts"), commandExtension("good", "ts"));

		const { session, extensions, ui } = await scriptedSdkSession(server, {}, ws);

		expect(extensions.loaded).toEqual([join(folder, "5-good.ts")]);
		expect(extensions.failed.map((failure) => failure.source)).toEqual([syntax, noDefault, throws, topLevel]);
		const [syntaxError, noDefaultError, throwsError, topLevelError] = extensions.failed.map((failure) => failure.error);
		expect(syntaxError).toMatch(/Unexpected token.*1-syntax\.ts:1/);
		expect(noDefaultError).toBe("it has no default export function: write `export default function (loom: ExtensionAPI) { … }`.");
		expect(throwsError).toBe("missing config");
		expect(topLevelError).toContain("boom at import");
		expect(ui.noticeLines()).toHaveLength(4);
		expect(ui.noticeLines()[0]).toMatch(new RegExp(`^error: Extension ${syntax} was not loaded: `));
		expect(commandNames(session)).toEqual(["good"]);
		// The run goes on without them.
		await session.prompt("hi");
		expect(server.requests).toHaveLength(1);
		session.dispose();
	});

	// One slow import must not add its wait to the others': a folder's modules are imported together, their
	// factories called in order. Here the first factory waits for the second module's top-level code.
	it("imports a folder's modules together, then calls their factories in the folder's order", async () => {
		const ws = workspace();
		const folder = join(ws.home, "extensions");
		const first = writeFileAt(
			join(folder, "1-waits.mjs"),
			'export default async function (loom) {\n\tawait globalThis.loomTestSecondImported;\n\tloom.registerCommand("first", { description: "x", handler: () => {} });\n}\n',
		);
		const second = writeFileAt(
			join(folder, "2-imported.mjs"),
			'globalThis.loomTestMarkSecond();\nexport default function (loom) {\n\tloom.registerCommand("second", { description: "x", handler: () => {} });\n}\n',
		);
		const global = globalThis as { loomTestSecondImported?: Promise<void>; loomTestMarkSecond?: () => void };
		global.loomTestSecondImported = new Promise<void>((resolve) => (global.loomTestMarkSecond = resolve));
		try {
			const { session, extensions } = await scriptedSdkSession(server, {}, ws);
			expect(extensions).toEqual({ loaded: [first, second], failed: [] });
			expect(commandNames(session)).toEqual(["first", "second"]);
			session.dispose();
		} finally {
			delete global.loomTestSecondImported;
			delete global.loomTestMarkSecond;
		}
	});

	it("rejects the session, naming each and why, when an extension named by path or factory does not load; nothing of it stays", async () => {
		const ws = workspace();
		writeFileAt(join(ws.cwd, "guard.ts"), commandExtension("guard", "ts"));
		const missing = join(ws.cwd, "nowhere.ts");
		let registeredBeforeThrowing: { commands: { get(name: string): unknown } } | undefined;
		const halfDone = function halfDone(loom: Parameters<ExtensionFactory>[0]) {
			registeredBeforeThrowing = loom.session;
			loom.registerCommand("half-done", { description: "x", handler: () => {} });
			throw new Error("missing config");
		};
		const ui = new ScriptedUi({ interactive: false });
		const made = scriptedSdkSession(server, { extensions: ["guard.ts", "nowhere.ts", halfDone], ui }, ws);
		await expect(made).rejects.toThrow(SessionOptionError);
		await expect(made).rejects.toMatchObject({
			option: "extensions",
			problem: `${missing} was not loaded: No extension at ${missing}. halfDone was not loaded: missing config.`,
		});
		expect(registeredBeforeThrowing?.commands.get("half-done")).toBeUndefined();
		expect(registeredBeforeThrowing?.commands.get("guard")).toBeUndefined();
		expect(ui.noticeLines()).toEqual([]);
		expect(server.requests).toHaveLength(0);
	});
});
