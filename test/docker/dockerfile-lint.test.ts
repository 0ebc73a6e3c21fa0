// The Dockerfile linted (dockerfile-utils' validator, every check at error severity), and what it takes from the
// repository checked against the repository: its COPY sources, its package list. dockerfile-image.test.ts builds
// and runs what it describes.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/loom-process.js";
import { commandsOf, imageStage, lint, readDockerfile, stagesOf } from "./dockerfile.js";

const RUNTIME_PACKAGES = ".ci/runtime-packages";

describe("the Dockerfile", () => {
	it("has no error or warning from dockerfile-utils' validator", () => {
		expect(lint(readDockerfile())).toEqual([]);
	});

	it("fails the lint with a defect planted in it, naming the line", () => {
		const text = readDockerfile();
		const lines = text.split("\n");
		const lineOf = (start: string) => lines.findIndex((line) => line.startsWith(start)) + 1;
		const planted: [string, string, RegExp][] = [
			["a relative WORKDIR", text.replace("WORKDIR /work", "WORKDIR work"), new RegExp(`^Dockerfile:${lineOf("WORKDIR /work")}: WORKDIR paths should be absolute`)],
			["a second ENTRYPOINT", `${text}ENTRYPOINT ["bash"]\n`, /There can only be one ENTRYPOINT/],
			["an instruction in lower case", text.replace("USER node", "user node"), new RegExp(`^Dockerfile:${lineOf("USER node")}: Instructions should be written in uppercase`)],
			["a COPY without its destination", text.replace("COPY bin ./bin", "COPY bin"), /COPY requires at least two arguments/],
			["an unknown instruction", text.replace("USER node", "USR node"), /Unknown instruction: USR/],
		];
		for (const [what, defective, expected] of planted) {
			expect(defective, what).not.toBe(text);
			expect(lint(defective), what).toContainEqual(expect.stringMatching(expected));
		}
	});

	it("copies from the build context only files of the repository that .dockerignore lets in", () => {
		const ignored = ignore().add(readFileSync(join(ROOT, ".dockerignore"), "utf8"));
		const sources = stagesOf(readDockerfile()).flatMap((stage) => stage.steps.filter((step) => step.keyword === "COPY" && step.from === undefined).flatMap((step) => step.args.slice(0, -1)));
		expect(sources).toContain("package.json");
		for (const source of sources) {
			expect(existsSync(join(ROOT, source)), `${source} is in the repository`).toBe(true);
			expect(ignored.ignores(source), `${source} is not in .dockerignore`).toBe(false);
		}
	});

	it(`installs the run-time packages of ${RUNTIME_PACKAGES}, the list .ci/run installs from too`, () => {
		const image = imageStage(stagesOf(readDockerfile()));
		const copied = image.steps.find((step) => step.keyword === "COPY" && step.args[0] === RUNTIME_PACKAGES);
		expect(copied, `the image copies ${RUNTIME_PACKAGES}`).toBeDefined();
		const listFile = copied!.args[1]!;
		const install = image.steps.flatMap((step) => (step.keyword === "RUN" ? commandsOf(step) : [])).find((command) => /apt-get install/.test(command));
		expect(install).toBeDefined();
		// The list is read from the copied file; by name, only what a container needs that a CI machine has anyway.
		expect(install).toContain(listFile);
		const named = install!.slice(install!.indexOf("apt-get install") + "apt-get install".length).split(/\s+/).filter((word) => word && !word.startsWith("-"));
		expect(named).toEqual(["ca-certificates"]);
		expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).toContain(`< <(grep -v '^#' ${RUNTIME_PACKAGES})`);
		const packages = readFileSync(join(ROOT, RUNTIME_PACKAGES), "utf8").split("\n").filter((line) => line && !line.startsWith("#")).map((line) => line.split(" ")[0]);
		expect(packages).toEqual(["git", "bubblewrap", "ripgrep"]);
	});

	it("runs loom as an unprivileged user", () => {
		const users = imageStage(stagesOf(readDockerfile())).steps.filter((step) => step.keyword === "USER").map((step) => step.args[0]);
		expect(users.length).toBeGreaterThan(0);
		expect(["root", "0"]).not.toContain(users.at(-1)!.split(":")[0]);
	});
});
