// Agent Skills: a folder holding SKILL.md, whose YAML front matter names and describes the skill and whose
// body are its instructions. The system prompt lists each skill's name, description and file; the model reads
// the file when a task calls for it. Front matter is checked as the Agent Skills specification says; a skill
// that breaks a rule is reported with its path and skipped.
import { basename, dirname, join } from "node:path";
import { entryExists } from "../../core/index.js";
import type { PromptSkill } from "../../core/index.js";
import { FrontMatterError, parseFrontMatter, stringField } from "./front-matter.js";
import { folderEntries, readResource, skippedProblem } from "./resource-dirs.js";

export type Skill = PromptSkill;

export interface LoadedSkills {
	skills: Skill[];
	/** One line per skill skipped, naming its file and what to fix. */
	problems: string[];
}

const SKILL_FILE = "SKILL.md";
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
/** Lowercase letters and digits in groups joined by single hyphens. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The skills of `dirs` (each holding one folder per skill), in order; the first of a name wins. */
export async function loadSkills(dirs: readonly string[]): Promise<LoadedSkills> {
	const skills: Skill[] = [];
	const problems: string[] = [];
	for (const dir of dirs) {
		for (const entry of folderEntries(dir)) {
			const path = join(dir, entry, SKILL_FILE);
			// A SKILL.md that cannot be read (a link leading nowhere, a FIFO) is reported, not passed over.
			if (!entryExists(path)) continue;
			try {
				const skill = await readSkill(path);
				const first = skills.find((known) => known.name === skill.name);
				if (first) throw new FrontMatterError(`a skill named "${skill.name}" is already loaded from ${first.path}`);
				skills.push(skill);
			} catch (error) {
				problems.push(skippedProblem(path, error, "skill"));
			}
		}
	}
	return { skills, problems };
}

/** One SKILL.md, checked; throws with what is wrong (without the path). */
async function readSkill(path: string): Promise<Skill> {
	const { data } = await parseFrontMatter(readResource(path));
	const name = stringField(data, "name");
	const description = stringField(data, "description");
	if (!name) throw new FrontMatterError('its front matter has no "name" (the skill\'s name, as its folder is named)');
	if (!description) throw new FrontMatterError('its front matter has no "description" (what the skill does and when to use it)');
	if (name.length > MAX_NAME || !NAME.test(name)) {
		throw new FrontMatterError(`the name "${name}" must be lowercase letters, digits and single hyphens (not at either end), at most ${MAX_NAME} characters`);
	}
	const folder = basename(dirname(path));
	if (name !== folder) throw new FrontMatterError(`the name "${name}" must be the name of its folder, "${folder}"`);
	if (description.length > MAX_DESCRIPTION) {
		throw new FrontMatterError(`the description is ${description.length} characters, over the ${MAX_DESCRIPTION} allowed`);
	}
	return { name, description: description.replace(/\s+/g, " "), path };
}

/**
 * What /skill:<name> sends: the skill's instructions (its file read again, so an edit applies at once), where
 * its relative paths point, then the user's arguments.
 */
export async function skillPrompt(skill: Skill, args: string): Promise<string> {
	const { body } = await parseFrontMatter(readResource(skill.path));
	const instructions = [
		`<skill name="${skill.name}" location="${skill.path}">`,
		`Paths in this skill are relative to ${dirname(skill.path)}.`,
		"",
		body.trim(),
		"</skill>",
	].join("\n");
	return args === "" ? instructions : `${instructions}\n\n${args}`;
}
