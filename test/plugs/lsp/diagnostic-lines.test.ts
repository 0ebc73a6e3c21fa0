// How diagnostics read and which are new; which server covers a file and for which workspace root.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { capped, diagnosticLine, newDiagnostics, reportable } from "../../../src/plugs/lsp/diagnostic-lines.js";
import { serverSpecs, specFor, workspaceRoot } from "../../../src/plugs/lsp/server-specs.js";
import { workspace } from "../../support/temp-dir.js";

const at = (line: number, character: number, message: string, code?: number, severity?: 1 | 2 | 3 | 4): Diagnostic => ({
	range: { start: { line, character }, end: { line, character: character + 1 } },
	message,
	...(code !== undefined ? { code } : {}),
	...(severity !== undefined ? { severity } : {}),
});

describe("diagnostic lines", () => {
	it("are path:line:col message [code], 1-based, on one line, with the severity named unless an error", () => {
		expect(diagnosticLine("src/a.ts", at(3, 6, "Type 'string' is not\n  assignable.", 2322, 1))).toBe("src/a.ts:4:7 Type 'string' is not assignable. [2322]");
		expect(diagnosticLine("a.py", at(0, 0, "unused", undefined, 2))).toBe("a.py:1:1 warning: unused");
		expect(capped(["a", "b", "c", "d"], 3)).toEqual(["a", "b", "… and 2 more"]);
		expect(capped(["a", "b"], 3)).toEqual(["a", "b"]);
	});

	it("new ones are those the baseline lacks, matched by message and code wherever they moved, each once", () => {
		const before = [at(1, 0, "old", 1), at(5, 0, "twice", 2)];
		const after = [at(2, 0, "old", 1), at(6, 0, "twice", 2), at(7, 0, "twice", 2), at(8, 0, "fresh", 3)];
		expect(newDiagnostics(before, after).map((diagnostic) => diagnostic.range.start.line)).toEqual([7, 8]);
	});

	it("errors are reported (a missing severity is one), warnings only when asked, hints never", () => {
		const all = [at(0, 0, "e", 1, 1), at(0, 0, "none"), at(0, 0, "w", 1, 2), at(0, 0, "h", 1, 4)];
		expect(reportable(all, false).map((diagnostic) => diagnostic.message)).toEqual(["e", "none"]);
		expect(reportable(all, true).map((diagnostic) => diagnostic.message)).toEqual(["e", "none", "w"]);
	});
});

describe("server specs", () => {
	it("take the settings' command over a default's, leave out defaults not installed, and say when a configured command is missing", () => {
		const ws = workspace();
		const bin = join(ws.cwd, "node_modules", ".bin");
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, "typescript-language-server"), "#!/bin/sh\n", { mode: 0o755 });
		const env = { PATH: "" };
		const found = serverSpecs(undefined, ws.cwd, env);
		expect(found.specs.map((spec) => [spec.language, spec.command, spec.args])).toEqual([["typescript", join(bin, "typescript-language-server"), ["--stdio"]]]);
		expect(found.problems).toEqual([]);
		expect(specFor(found.specs, "/x/a.tsx")?.language).toBe("typescript");
		expect(specFor(found.specs, "/x/a.py")).toBeUndefined();
		const configured = serverSpecs({ typescript: { enabled: false }, python: { command: ["no-such-server"] } }, ws.cwd, env);
		expect(configured.specs).toEqual([]);
		expect(configured.problems).toEqual(['The python language server\'s command "no-such-server" was found neither in node_modules/.bin nor on PATH.']);
		expect(serverSpecs(false, ws.cwd, env).specs).toEqual([]);
	});

	it("start a server for the nearest folder with a root marker, else for the working directory", () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, "packages", "app", "src"), { recursive: true });
		writeFileSync(join(ws.cwd, "packages", "app", "tsconfig.json"), "{}");
		const bin = join(ws.cwd, "node_modules", ".bin");
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, "typescript-language-server"), "#!/bin/sh\n", { mode: 0o755 });
		const [spec] = serverSpecs(undefined, ws.cwd, { PATH: "" }).specs;
		expect(workspaceRoot(spec!, join(ws.cwd, "packages", "app", "src", "a.ts"), ws.cwd)).toBe(join(ws.cwd, "packages", "app"));
		expect(workspaceRoot(spec!, join(ws.cwd, "scripts", "b.ts"), ws.cwd)).toBe(ws.cwd);
	});
});
