// The engine (src/core) knows no command line: no string in it names one of loom's flags. Messages that tell a user
// what to set take the caller's wording (src/cli/run-io.ts's CLI_WORDING); comments may name flags.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/cli/args.js";

const ROOT = join(import.meta.dirname, "../..");
/** A long flag, not inside a word or a longer dash run ("x--y", "---"). */
const LONG_FLAG = /(?<![\w-])--[a-z][a-z-]*/gi;

/** The command's flags, as its --help lists them: long ones ("--base-url"), and short ones ("-r"). */
function cliFlags(): { long: Set<string>; short: Set<string> } {
	let help = "";
	parseArgs(["--help"], "0.0.0-test", { out: (text) => (help += text), err: (text) => (help += text) });
	const long = new Set(help.match(LONG_FLAG) ?? []);
	const short = new Set([...help.matchAll(/(?<![\w-])(-[a-zA-Z]), --/g)].map((match) => match[1]!));
	return { long, short };
}

/** Comments, and string and template literals, in source order (a template's text runs to its closing backquote). */
const TOKENS = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g;

/** The text of every string and template literal of a source file, with its line; comments are left out. */
function literals(file: string): { line: number; text: string }[] {
	const source = readFileSync(file, "utf8");
	return [...source.matchAll(TOKENS)]
		.filter(([token]) => !token.startsWith("/"))
		.map((match) => ({ line: source.slice(0, match.index).split("\n").length, text: match[0] }));
}

function typeScriptFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
		.map((entry) => join(entry.parentPath, entry.name));
}

/** Where a text names one of the flags: a long flag anywhere, a short one after "loom ". */
function flagsIn(text: string, flags: { long: Set<string>; short: Set<string> }): string[] {
	const long = (text.match(LONG_FLAG) ?? []).filter((flag) => flags.long.has(flag));
	const short = [...text.matchAll(/\bloom (-[a-zA-Z])\b/g)].map((match) => match[1]!).filter((flag) => flags.short.has(flag));
	return [...long, ...short];
}

describe("the engine's wording", () => {
	it("finds the command's flags in a text, so the check below can fail", () => {
		const flags = cliFlags();
		expect(flags.long).toContain("--base-url");
		expect(flags.long).toContain("--no-session");
		expect(flags.short).toContain("-r");
		expect(flagsIn("set by --base-url or models.json; Run `loom -r` to list", flags)).toEqual(["--base-url", "-r"]);
		expect(flagsIn("git log --no-walk, a-r, x--provider", flags)).toEqual([]);
		const file = join(tmpdir(), `loom-flag-words-${process.pid}.ts`);
		writeFileSync(file, '// pass --provider\n/* or --model */ const a = `set by ${b} --base-url`;\nconst c = "loom -r";\n');
		try {
			expect(literals(file).flatMap(({ line, text }) => flagsIn(text, flags).map((flag) => `${line}: ${flag}`))).toEqual(["2: --base-url", "3: -r"]);
		} finally {
			rmSync(file);
		}
	});

	it("names no command-line flag in any string of src/core (comments may)", () => {
		const flags = cliFlags();
		const mentions = typeScriptFiles(join(ROOT, "src/core")).flatMap((file) =>
			literals(file).flatMap(({ line, text }) => flagsIn(text, flags).map((flag) => `${relative(ROOT, file)}:${line}: ${flag}`)),
		);
		expect(mentions).toEqual([]);
	});
});
