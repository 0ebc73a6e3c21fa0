import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ancestorsFromRoot, buildSystemPrompt, loadContextFiles } from "../../../src/core/session/index.js";
import { tempDir } from "../../support/temp-dir.js";
import { builtinTools as tools } from "../../support/builtin-tools.js";

describe("loadContextFiles", () => {
	it("reads loom's home first, then each directory from the root down, one file per directory, AGENTS.md first", () => {
		const root = tempDir();
		const home = join(root, "home");
		const cwd = join(root, "a", "b", "c");
		mkdirSync(home, { recursive: true });
		mkdirSync(cwd, { recursive: true });
		writeFileSync(join(home, "CLAUDE.md"), "global rules");
		writeFileSync(join(root, "a", "AGENTS.md"), "rules of a");
		writeFileSync(join(root, "a", "CLAUDE.md"), "ignored: AGENTS.md wins in a");
		writeFileSync(join(root, "a", "b", "CLAUDE.md"), "rules of b");
		writeFileSync(join(cwd, "AGENTS.md"), "rules of c");

		const files = loadContextFiles(cwd, home);
		expect(files.map((file) => [file.path, file.content])).toEqual([
			[join(home, "CLAUDE.md"), "global rules"],
			[join(root, "a", "AGENTS.md"), "rules of a"],
			[join(root, "a", "b", "CLAUDE.md"), "rules of b"],
			[join(cwd, "AGENTS.md"), "rules of c"],
		]);
	});

	it("reads a file once when loom's home lies on the path or a symlink points at it", () => {
		const root = tempDir();
		writeFileSync(join(root, "AGENTS.md"), "once");
		const cwd = join(root, "sub");
		mkdirSync(cwd);
		symlinkSync(join(root, "AGENTS.md"), join(cwd, "AGENTS.md"));
		expect(loadContextFiles(cwd, root).map((file) => file.content)).toEqual(["once"]);
	});

	it("ignores a directory named AGENTS.md", () => {
		const root = tempDir();
		mkdirSync(join(root, "AGENTS.md"));
		writeFileSync(join(root, "CLAUDE.md"), "fallback");
		expect(loadContextFiles(root, join(root, "nohome")).map((file) => file.content)).toEqual(["fallback"]);
	});

	it("cuts a long UTF-16 file at its last line break within the limit, as text", () => {
		const root = tempDir();
		const line = "règle ✓ — une ligne\n";
		// Each character is two bytes: 70 KB of text, so the cut falls inside a line, past 64 KB of bytes.
		const text = line.repeat(Math.ceil((70 * 1024) / (2 * line.length)));
		writeFileSync(join(root, "AGENTS.md"), Buffer.from(`\uFEFF${text}`, "utf16le"));
		const [file] = loadContextFiles(root, join(root, "nohome"));
		expect(file!.warning).toContain("only its first 64 KB are given to the model");
		expect(file!.content.endsWith(line)).toBe(true);
		expect(text.startsWith(file!.content)).toBe(true);
		expect(file!.content.length).toBeGreaterThan(30 * 1024);
	});

	it("lists ancestors from the root down", () => {
		expect(ancestorsFromRoot("/a/b")).toEqual(["/", "/a", "/a/b"]);
		expect(ancestorsFromRoot("/")).toEqual(["/"]);
	});
});

describe("buildSystemPrompt", () => {
	const date = new Date("2025-02-03T10:00:00Z");

	it("describes the role, each enabled tool, the working rules, the cwd and the date", () => {
		const prompt = buildSystemPrompt({ tools, cwd: "/work/app", date });
		expect(prompt).toMatch(/^You are loom, a coding agent/);
		for (const name of ["read", "bash", "edit", "write"]) expect(prompt).toMatch(new RegExp(`^- ${name}: `, "m"));
		expect(prompt).toContain("Read a file before you change it.");
		expect(prompt).toContain("Prefer edit");
		expect(prompt).toContain("Keep answers short");
		expect(prompt).toContain("Working directory: /work/app");
		expect(prompt).toContain("Today's date: 2025-02-03");
	});

	it("mentions only the tools that are enabled", () => {
		const prompt = buildSystemPrompt({ tools: [tools[0]!], cwd: "/", date });
		expect(prompt).toMatch(/^- read: /m);
		expect(prompt).not.toMatch(/^- bash: /m);
		expect(prompt).not.toContain("Prefer edit");
		const none = buildSystemPrompt({ tools: [], cwd: "/", date });
		expect(none).toContain("No tools are enabled");
	});

	it("describes an unknown tool by the first sentence of its description", () => {
		const prompt = buildSystemPrompt({ tools: [{ name: "grep", description: "Search files. Long details here." }], cwd: "/", date });
		expect(prompt).toContain("- grep: Search files\n");
	});

	it("replaces the default prompt, appends text and adds context files with their paths, in order", () => {
		const prompt = buildSystemPrompt({
			tools,
			cwd: "/w",
			date,
			customPrompt: "You are a pirate.",
			appendPrompt: "Always answer in French.",
			contextFiles: [
				{ path: "/home/u/.loom/AGENTS.md", content: "global\n" },
				{ path: "/w/AGENTS.md", content: "project" },
			],
		});
		expect(prompt).not.toContain("You are loom");
		const order = ["You are a pirate.", "Always answer in French.", "## /home/u/.loom/AGENTS.md\n\nglobal", "## /w/AGENTS.md\n\nproject", "Working directory: /w"];
		const positions = order.map((part) => prompt.indexOf(part));
		expect(positions.every((position) => position >= 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
	});

	it("lists the skills by name, description and file, after the context files, while the read tool is enabled", () => {
		const skills = [
			{ name: "review", description: "Review a change <carefully> & fix", path: "/home/u/.loom/skills/review/SKILL.md" },
			{ name: "deploy", description: "Ship it.", path: "/w/.loom/skills/deploy/SKILL.md" },
		];
		const contextFiles = [{ path: "/w/AGENTS.md", content: "project" }];
		const prompt = buildSystemPrompt({ tools, cwd: "/w", date, skills, contextFiles, customPrompt: "Custom." });
		expect(prompt).toContain(
			[
				"<available_skills>",
				"  <skill>",
				"    <name>review</name>",
				"    <description>Review a change &lt;carefully&gt; &amp; fix</description>",
				"    <location>/home/u/.loom/skills/review/SKILL.md</location>",
				"  </skill>",
				"  <skill>",
				"    <name>deploy</name>",
				"    <description>Ship it.</description>",
				"    <location>/w/.loom/skills/deploy/SKILL.md</location>",
				"  </skill>",
				"</available_skills>",
			].join("\n"),
		);
		expect(prompt).toContain("read its file with the read tool first and follow it");
		expect(prompt.indexOf("## /w/AGENTS.md")).toBeLessThan(prompt.indexOf("# Skills"));
		expect(prompt.indexOf("</available_skills>")).toBeLessThan(prompt.indexOf("Working directory: /w"));
		const withoutRead = buildSystemPrompt({ tools: tools.filter((tool) => tool.name !== "read"), cwd: "/w", date, skills });
		expect(withoutRead).not.toContain("Skills");
		expect(buildSystemPrompt({ tools, cwd: "/w", date, skills: [] })).not.toContain("Skills");
	});

	it("asks the tool definitions whether one reads files, not for the name read", () => {
		const skills = [{ name: "review", description: "Review a change", path: "/w/.loom/skills/review/SKILL.md" }];
		const others = tools.filter((tool) => !tool.readsFiles);
		const cat = { name: "cat", description: "Prints a file.", readsFiles: true };
		const withCat = buildSystemPrompt({ tools: [...others, cat], cwd: "/w", date, skills });
		expect(withCat).toContain("<name>review</name>");
		expect(withCat).toContain("read its file with the cat tool first and follow it");
		const namedReadOnly = { name: "read", description: "Reads something, but not files." };
		expect(buildSystemPrompt({ tools: [...others, namedReadOnly], cwd: "/w", date, skills })).not.toContain("Skills");
	});
});
