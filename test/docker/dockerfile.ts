// The repository's Dockerfile as the Docker tests read it: linted by dockerfile-utils (the validator of VS Code's
// Docker language server; hadolint ships only as a binary), parsed by dockerfile-ast into its build stages.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DockerfileParser, type Copy, type Env, type Instruction, type JSONInstruction } from "dockerfile-ast";
import { validate, ValidationSeverity, type ValidatorSettings } from "dockerfile-utils";
import { ROOT } from "../support/loom-process.js";

export const DOCKERFILE = join(ROOT, "Dockerfile");

export function readDockerfile(): string {
	return readFileSync(DOCKERFILE, "utf8");
}

/** Every check the validator has, at error severity: the defaults leave some at warning or ignore them. */
const STRICT: ValidatorSettings = {
	deprecatedMaintainer: ValidationSeverity.ERROR,
	directiveCasing: ValidationSeverity.ERROR,
	emptyContinuationLine: ValidationSeverity.ERROR,
	instructionCasing: ValidationSeverity.ERROR,
	instructionCmdMultiple: ValidationSeverity.ERROR,
	instructionEntrypointMultiple: ValidationSeverity.ERROR,
	instructionHealthcheckMultiple: ValidationSeverity.ERROR,
	instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
	instructionWorkdirRelative: ValidationSeverity.ERROR,
};

/** LSP's severities: 1 error, 2 warning, 3 information, 4 hint. */
const WARNING = 2;

/** The validator's errors and warnings, one line each (`Dockerfile:LINE: message`). */
export function lint(text: string): string[] {
	return validate(text, STRICT)
		.filter((diagnostic) => (diagnostic.severity ?? 1) <= WARNING)
		.map((diagnostic) => `Dockerfile:${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
}

export interface Step {
	keyword: string;
	/** The instruction's arguments (COPY's flags left out). */
	args: string[];
	/** A RUN's shell text, its continued lines joined. */
	shell: string;
	/** COPY --from. */
	from?: string;
	/** ENV's variables. */
	env?: [string, string][];
	/** ENTRYPOINT and CMD in exec form. */
	exec?: string[];
	line: number;
}

export interface Stage {
	/** FROM's image. */
	image: string;
	/** FROM … AS name. */
	name?: string;
	steps: Step[];
}

/** The Dockerfile's build stages, in order, each with its instructions after FROM. */
export function stagesOf(text: string): Stage[] {
	const stages: Stage[] = [];
	for (const instruction of DockerfileParser.parse(text).getInstructions()) {
		const keyword = instruction.getKeyword();
		if (keyword === "FROM") {
			const [image, , name] = instruction.getArguments().map((arg) => arg.getValue());
			stages.push({ image: image!, ...(name ? { name } : {}), steps: [] });
			continue;
		}
		const stage = stages.at(-1);
		if (!stage) throw new Error(`Dockerfile:${instruction.getRange().start.line + 1}: ${keyword} before any FROM`);
		stage.steps.push(stepOf(instruction));
	}
	return stages;
}

function stepOf(instruction: Instruction): Step {
	const keyword = instruction.getKeyword();
	const step: Step = {
		keyword,
		args: instruction.getArguments().map((arg) => arg.getValue()),
		shell: (instruction.getArgumentsContent() ?? "").replace(/\s+/g, " ").trim(),
		line: instruction.getRange().start.line + 1,
	};
	if (keyword === "COPY") {
		const from = (instruction as Copy).getFromFlag()?.getValue();
		if (from) step.from = from;
	}
	if (keyword === "ENV") step.env = (instruction as Env).getProperties().map((property) => [property.getName(), property.getValue() ?? ""]);
	if (keyword === "ENTRYPOINT" || keyword === "CMD") {
		const strings = (instruction as JSONInstruction).getJSONStrings();
		if (strings.length > 0) step.exec = strings.map((string) => string.getJSONValue());
	}
	return step;
}

/** A RUN's commands, split at `&&`. */
export function commandsOf(step: Step): string[] {
	return step.shell.split("&&").map((command) => command.trim());
}

/** The stage the image is: the last. */
export function imageStage(stages: Stage[]): Stage {
	return stages.at(-1)!;
}
