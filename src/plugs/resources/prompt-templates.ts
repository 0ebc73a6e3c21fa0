// Prompt templates: Markdown files whose name becomes a slash command. `/review src/app.ts` sends the file's
// text with $ARGUMENTS (or $@) replaced by everything after the name and $1, $2, … by each argument.
// Optional front matter gives `description` (for /help and the command list) and `argument-hint`.
import { basename, join } from "node:path";
import { oneLine } from "../../core/index.js";
import { FrontMatterError, parseFrontMatter, stringField } from "./front-matter.js";
import { folderEntries, readResource, skippedProblem } from "./resource-dirs.js";

export interface PromptTemplate {
	/** The command's name: the file's name without .md. */
	name: string;
	description: string;
	argsHint?: string;
	path: string;
}

export interface LoadedTemplates {
	templates: PromptTemplate[];
	/** One line per template skipped, naming its file and what to fix. */
	problems: string[];
}

/** What a template's file name must be, less ".md": a command name without a namespace. */
const TEMPLATE_NAME = /^[a-z][a-z0-9-]*$/;
/** A description longer than this is cut for the one line /help gives it. */
const MAX_DESCRIPTION = 120;

/** The templates of `dirs` (their *.md files, not those in subfolders), in order; the first of a name wins. */
export async function loadPromptTemplates(dirs: readonly string[]): Promise<LoadedTemplates> {
	const templates: PromptTemplate[] = [];
	const problems: string[] = [];
	for (const dir of dirs) {
		for (const entry of folderEntries(dir)) {
			if (!entry.endsWith(".md")) continue;
			const path = join(dir, entry);
			try {
				const template = await readTemplate(path);
				if (!template) continue;
				const first = templates.find((known) => known.name === template.name);
				if (first) throw new FrontMatterError(`a prompt template named "${template.name}" is already loaded from ${first.path}`);
				templates.push(template);
			} catch (error) {
				problems.push(skippedProblem(path, error, "prompt template"));
			}
		}
	}
	return { templates, problems };
}

/** One template, checked; undefined for something that is not a file (a folder named x.md). */
async function readTemplate(path: string): Promise<PromptTemplate | undefined> {
	const name = basename(path, ".md");
	if (!TEMPLATE_NAME.test(name)) {
		throw new FrontMatterError(`"${name}" cannot be a command name: rename the file to lowercase letters, digits and dashes, starting with a letter`);
	}
	let text: string;
	try {
		text = readResource(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EISDIR") return undefined;
		throw error;
	}
	const { data, body } = await parseFrontMatter(text);
	const described = stringField(data, "description") || firstLine(body) || "prompt template";
	const argsHint = stringField(data, "argument-hint") || undefined;
	return { name, description: oneLine(described, MAX_DESCRIPTION), argsHint: argsHint && oneLine(argsHint, MAX_DESCRIPTION), path };
}

/** The text a template sends for `args`: read again, so an edit applies at once. */
export async function templatePrompt(template: PromptTemplate, args: string): Promise<string> {
	const { body } = await parseFrontMatter(readResource(template.path));
	return expandTemplate(body.trim(), args);
}

/**
 * Replaces $ARGUMENTS and $@ with all the arguments, and $1, $2, … with each (quotes group words: "two words"
 * is one argument; a missing one is empty). A template without any placeholder gets the arguments after it.
 */
export function expandTemplate(body: string, args: string): string {
	const positional = splitArguments(args);
	let placeholders = 0;
	const expanded = body.replace(/\$(ARGUMENTS\b|@|\d+)/g, (_match, key: string) => {
		placeholders++;
		if (key === "ARGUMENTS" || key === "@") return args;
		return positional[Number(key) - 1] ?? "";
	});
	return placeholders === 0 && args !== "" ? `${body}\n\n${args}` : expanded;
}

/** Words separated by blanks; "double" or 'single' quotes keep blanks inside one argument. */
export function splitArguments(args: string): string[] {
	const words: string[] = [];
	for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]!);
	return words;
}

function firstLine(body: string): string {
	const line = body.split("\n").find((text) => text.trim() !== "") ?? "";
	return line.replace(/^#+\s*/, "").trim();
}

