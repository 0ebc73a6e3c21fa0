// File patterns of approval rules: `src/**`, `*.md`, `.env`, `/tmp/**`, `~/.ssh/**`.
// A pattern with no slash names files anywhere (`.env` is every .env); one with a slash (`./.env` too) is
// anchored at the working directory; one starting with `/` or `~` is absolute. A trailing slash means everything under it.
// Not picomatch (the search tools' globs): here every character but `* ? { } \` stands for itself (picomatch
// reads `(a|b)` as a choice even without extglobs), `**` crosses folders inside a name too (`a**b`), `dir/`
// covers what is under dir but not dir itself, and compiling is synchronous, in the approval path.
import { basename, isAbsolute, relative, sep } from "node:path";
import { escapeRegex } from "../../core/index.js";

export interface PathPattern {
	anchor: "name" | "cwd" | "absolute";
	regex: RegExp;
	/** Names one path (or one file name), with no glob character and no trailing slash. */
	exact: boolean;
}

export function compilePathPattern(pattern: string, home: string): PathPattern {
	let glob = pattern.endsWith("/") ? `${pattern}**` : pattern;
	if (glob === "~" || glob.startsWith("~/")) glob = home + glob.slice(1);
	const anchor = glob.startsWith("/") ? "absolute" : glob.includes("/") ? "cwd" : "name";
	if (glob.startsWith("./")) glob = glob.slice(2);
	const exact = !pattern.endsWith("/") && !/(^|[^\\])[*?{]/.test(pattern);
	return { anchor, regex: new RegExp(`^${globSource(glob)}$`, "s"), exact };
}

/** Whether the file at `absolute` matches, for a working directory `cwd`. */
export function matchesPath(pattern: PathPattern, absolute: string, cwd: string): boolean {
	switch (pattern.anchor) {
		case "absolute":
			return pattern.regex.test(absolute);
		case "name":
			return pattern.regex.test(basename(absolute));
		case "cwd": {
			const inside = relative(cwd, absolute);
			if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return false;
			return pattern.regex.test(inside.split(sep).join("/"));
		}
	}
}

/** A regex source for a glob: `**` any path (`**\/` also none), `*` and `?` within a name, `{a,b}`, `\x` a literal x. */
function globSource(glob: string): string {
	let out = "";
	for (let at = 0; at < glob.length; at++) {
		const char = glob[at];
		if (char === "\\" && at + 1 < glob.length) {
			out += escapeRegex(glob[++at]);
		} else if (char === "*" && glob[at + 1] === "*") {
			at++;
			if (glob[at + 1] === "/") {
				at++;
				out += "(?:.*/)?";
			} else out += ".*";
		} else if (char === "*") out += "[^/]*";
		else if (char === "?") out += "[^/]";
		else if (char === "{" && glob.indexOf("}", at) > at) {
			const end = glob.indexOf("}", at);
			out += `(?:${glob.slice(at + 1, end).split(",").map(globSource).join("|")})`;
			at = end;
		} else out += escapeRegex(char);
	}
	return out;
}

/** A path written so that the pattern compiler reads it literally. */
export function escapeGlob(path: string): string {
	return path.replace(/[*?{}\\]/g, "\\$&");
}
