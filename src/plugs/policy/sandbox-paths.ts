// The approval rules' file patterns as the sandbox's binds, so that the prompt and the kernel agree: what a
// `read` deny rule names is hidden, what a `write`/`edit` deny rule names is read-only, and what a `write`/`edit`
// allow rule names outside the project is writable. Only patterns naming a place can become a bind: a literal path
// (`~/.ssh/**`, `./secrets/`, `/etc/app.conf`), or a bare file name (`.env`), looked for in the working tree.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadProjectSettings, projectSettingsPath, type Settings } from "../../core/index.js";
import { policyConfig, type PolicySources } from "./policy-config.js";
import type { Rule } from "./rules.js";

export interface SandboxPathRules {
	/** Absolute paths hidden from commands (an empty folder or an empty file in their place). */
	hidden: string[];
	readOnly: string[];
	writable: string[];
}

export interface SandboxPathOptions {
	flags?: PolicySources["flags"];
	settings: Settings;
	settingsFile: string;
	cwd: string;
	home: string;
}

/** How deep the working tree is searched for files a bare-name rule (`read(.env)`) names. */
const NAME_SEARCH_DEPTH = 4;
/** Past this many entries the search stops: a huge tree keeps what was found. */
const NAME_SEARCH_ENTRIES = 20_000;
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

const PATTERN = /^[^()\s]+\(([\s\S]*)\)$/;

/** The binds the user's and the project's rules ask for; throws a RuleError for a bad rule, as the policy does. */
export function sandboxPathRules(options: SandboxPathOptions): SandboxPathRules {
	const { cwd, home } = options;
	const config = policyConfig({
		flags: options.flags ?? {},
		user: { settings: options.settings, file: options.settingsFile },
		project: { settings: loadProjectSettings(cwd), file: projectSettingsPath(cwd) },
		home,
	});
	const names: { name: string; into: keyof SandboxPathRules }[] = [];
	const out: SandboxPathRules = { hidden: [], readOnly: [], writable: [] };
	const place = (rule: Rule, into: keyof SandboxPathRules) => {
		const spec = PATTERN.exec(rule.text)?.[1]?.trim();
		if (spec === undefined || spec.startsWith("!")) return;
		const path = literalPlace(spec, cwd, home);
		if (path) out[into].push(path);
		else if (/^[^/*?{}\\]+$/.test(spec)) names.push({ name: spec, into });
	};
	for (const rule of config.deny) {
		if (rule.tool.test("read")) place(rule, "hidden");
		else if (rule.tool.test("write") || rule.tool.test("edit")) place(rule, "readOnly");
	}
	for (const rule of config.allow) if (rule.tool.test("write") || rule.tool.test("edit")) place(rule, "writable");
	if (names.length > 0) {
		for (const file of filesNamed(cwd, new Set(names.map((entry) => entry.name)))) {
			for (const entry of names) if (file.endsWith(`/${entry.name}`)) out[entry.into].push(file);
		}
	}
	return { hidden: unique(out.hidden), readOnly: unique(out.readOnly), writable: unique(out.writable.filter((path) => !path.startsWith(`${resolve(cwd)}/`))) };
}

/** The place a pattern names: its path up to a trailing `/**`, `/` or `/*`, when the rest holds no glob. */
function literalPlace(spec: string, cwd: string, home: string): string | undefined {
	const body = spec.replace(/\/\*\*$|\/\*$|\/$/, "");
	if (/[*?{}\\]/.test(body) || body === "") return undefined;
	if (body === "~" || body.startsWith("~/")) return join(home, body.slice(1));
	if (body.startsWith("/")) return resolve(body);
	if (body.includes("/") || spec !== body) return resolve(cwd, body);
	return undefined;
}

/** Files (or folders) under `cwd` with one of `names`, a few levels deep; what cannot be listed is passed over. */
function filesNamed(cwd: string, names: ReadonlySet<string>): string[] {
	const found: string[] = [];
	let seen = 0;
	const visit = (folder: string, depth: number) => {
		let entries;
		try {
			entries = readdirSync(folder, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			if (++seen > NAME_SEARCH_ENTRIES) return;
			const path = join(folder, entry.name);
			if (names.has(entry.name)) found.push(path);
			if (entry.isDirectory() && depth < NAME_SEARCH_DEPTH && !SKIPPED_FOLDERS.has(entry.name)) visit(path, depth + 1);
		}
	};
	visit(resolve(cwd), 1);
	return found;
}

function unique(paths: string[]): string[] {
	return [...new Set(paths)];
}
