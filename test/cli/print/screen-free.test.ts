// Print mode (and the other modes without the screen) loads none of the screen's modules: what it shares with the
// screen, such as how a path is written as an @-mention, lives below both. Only the screen's own path imports
// src/tui, dynamically.
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The modules `file` loads as it loads: static imports and re-exports, those naming types only left out. */
function staticImports(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const found: string[] = [];
	for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:([\s\S]*?)\s+from\s+)?"([^"]+)";/gm)) {
		const [, typeOnly, names, specifier] = match;
		if (typeOnly || !specifier!.startsWith(".")) continue;
		const braced = names?.match(/^\{([\s\S]*)\}$/)?.[1];
		if (braced !== undefined && braced.split(",").every((name) => name.trim() === "" || name.trim().startsWith("type "))) continue;
		const base = resolve(dirname(file), specifier!.replace(/\.js$/, ""));
		const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
		if (target) found.push(target);
	}
	return found;
}

function loadedWith(entry: string): string[] {
	const seen = new Set<string>();
	const pending = [resolve(ROOT, entry)];
	while (pending.length > 0) {
		const file = pending.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		pending.push(...staticImports(file));
	}
	return [...seen].map((file) => relative(ROOT, file));
}

describe("the modes without the screen", () => {
	it("load no module of src/tui: the session's run (print mode, JSON, RPC, ACP), the command's entry and print mode", () => {
		for (const entry of ["src/cli/main.ts", "src/cli/run.ts", "src/cli/run-session.ts", "src/cli/print/index.ts"]) {
			const loaded = loadedWith(entry);
			expect(loaded.length).toBeGreaterThan(1);
			expect(loaded.filter((file) => file.startsWith("src/tui/")), entry).toEqual([]);
		}
	});
});
