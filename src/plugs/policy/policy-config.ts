// The policy's starting configuration from flags, the user's settings and the project's own settings.
// Flags win over the user's settings; a project's settings may only tighten: its deny rules are added and a
// stricter mode is taken (its mode stays the floor for the whole session), but its allow rules, a looser mode and
// guards turned off are ignored.
import { APPROVAL_MODES, type ApprovalMode } from "../../core/index.js";
import type { Settings } from "../../core/index.js";
import { GUARD_NAMES, type GuardName, isGuardName } from "./guards.js";
import { parseRule, type Rule, RuleError } from "./rules.js";

export interface PolicySources {
	flags: { approval?: ApprovalMode; allow?: readonly string[]; deny?: readonly string[] };
	user: { settings: Settings; file: string };
	project: { settings: Settings; file: string };
	/** The home folder `~` in file patterns stands for. */
	home: string;
}

/** A project's own approval mode: the loosest the session may switch to, for its whole length. */
export interface ApprovalFloor {
	mode: ApprovalMode;
	/** The project's settings file, named when a looser mode is refused. */
	file: string;
}

export interface PolicyConfig {
	mode: ApprovalMode;
	/** Set when the project's settings name a mode stricter than auto. */
	floor?: ApprovalFloor;
	allow: Rule[];
	deny: Rule[];
	disabledGuards: Set<GuardName>;
	/** What the project's settings asked for and did not get (they may only tighten). */
	ignored: string[];
}

function strictness(mode: ApprovalMode): number {
	return APPROVAL_MODES.indexOf(mode);
}

/**
 * The modes a session may switch to, loosest first: every one, or the floor's and stricter ones. Plan mode ends
 * by implementing in ask or auto, so a read-only floor, which allows neither, leaves it out.
 */
export function allowedModes(floor: ApprovalFloor | undefined): ApprovalMode[] {
	if (!floor) return [...APPROVAL_MODES];
	return APPROVAL_MODES.slice(strictness(floor.mode)).filter((mode) => !(mode === "plan" && floor.mode === "read-only"));
}

/** Why switching to `mode` is refused, when it is looser than the project's floor (or plan mode under a read-only one). */
export function floorRefusal(floor: ApprovalFloor | undefined, mode: ApprovalMode): string | undefined {
	if (floor?.mode === "read-only" && mode === "plan") {
		return `${floor.file} keeps this project at approval "read-only" for the whole session, so no plan could be implemented: "plan" is refused.`;
	}
	if (!floor || strictness(mode) >= strictness(floor.mode)) return undefined;
	return `${floor.file} keeps this project at approval "${floor.mode}" or stricter for the whole session, so "${mode}" is refused. To loosen it, change that file and start loom again.`;
}

export function policyConfig(sources: PolicySources): PolicyConfig {
	const { flags, user, project, home } = sources;
	const rules = (texts: readonly string[] | undefined, source: string) => (texts ?? []).map((text) => parseRule(text, source, home));
	const ignored: string[] = [];

	let mode = flags.approval ?? user.settings.approval ?? "auto";
	const projectMode = project.settings.approval;
	if (projectMode && strictness(projectMode) > strictness(mode)) mode = projectMode;
	else if (projectMode && projectMode !== mode) ignored.push(`approval "${projectMode}" (looser than "${mode}")`);

	const disabledGuards = new Set<GuardName>();
	for (const [name, on] of Object.entries(user.settings.guards ?? {})) {
		checkGuardName(name, user.file);
		if (!on) disabledGuards.add(name as GuardName);
	}
	for (const [name, on] of Object.entries(project.settings.guards ?? {})) {
		checkGuardName(name, project.file);
		if (on) disabledGuards.delete(name as GuardName);
		else ignored.push(`turning off the ${name} guard`);
	}
	if ((project.settings.allow ?? []).length > 0) ignored.push(`allow rules (${project.settings.allow!.join(", ")})`);
	// Parsed all the same, so a mistake in them is reported rather than silently kept.
	rules(project.settings.allow, project.file);

	return {
		mode,
		...(projectMode && projectMode !== "auto" ? { floor: { mode: projectMode, file: project.file } } : {}),
		allow: [...rules(flags.allow, "--allow"), ...rules(user.settings.allow, user.file)],
		deny: [...rules(flags.deny, "--deny"), ...rules(user.settings.deny, user.file), ...rules(project.settings.deny, project.file)],
		disabledGuards,
		ignored: ignored.map((what) => `${project.file}: ${what} ignored: a project's settings may only tighten the user's.`),
	};
}

function checkGuardName(name: string, file: string): void {
	if (!isGuardName(name)) throw new RuleError(`Unknown guard "${name}" in ${file}: the guards are ${GUARD_NAMES.join(", ")}.`, file);
}
