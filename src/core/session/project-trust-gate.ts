// A project's own code (its .loom/extensions, its .mcp.json servers) runs only in a directory the user trusts.
// While a session is assembled, whatever needs trust waits at this gate; the user is asked once, when someone
// can answer, the answer is remembered for the directory, and on a yes what waited starts.
import { errorMessage, showControls } from "../lib/index.js";
import type { StyledLine } from "../engine/index.js";
import { projectTrust, setProjectTrust } from "../config/index.js";
import type { SessionUi } from "./session-ui.js";

export type ProjectTrustStatus = "trusted" | "refused" | "undecided";

interface Waiting {
	what: readonly string[];
	start: () => Promise<void> | void;
}

export class ProjectTrustGate {
	private current: ProjectTrustStatus;
	private waiting: Waiting[] = [];
	/** What did not start because the user said no before. */
	private refused: string[] = [];
	private question: Promise<boolean> | undefined;

	/** `optIn`: trusted for this session whatever was remembered (--trust, settings' trustProjects). */
	constructor(
		readonly home: string,
		readonly cwd: string,
		optIn = false,
	) {
		const remembered = projectTrust(home, cwd);
		this.current = optIn || remembered === true ? "trusted" : remembered === false ? "refused" : "undecided";
	}

	get status(): ProjectTrustStatus {
		return this.current;
	}

	/** What has not started for want of trust (waiting for an answer, or refused), as given to whenTrusted. */
	get pending(): string[] {
		return [...this.refused, ...this.waiting.flatMap((entry) => entry.what)];
	}

	/**
	 * Starts `start` now when the project is trusted, after a yes when it is undecided, never when the user said
	 * no. `what` names what would run (relative paths, server names) for the question.
	 */
	async whenTrusted(what: readonly string[], start: () => Promise<void> | void): Promise<void> {
		if (this.current === "trusted") await start();
		else if (this.current === "undecided") this.waiting.push({ what, start });
		else this.refused.push(...what);
	}

	/**
	 * Asks through `ui` whether to trust the directory, once for everything waiting (callers share the question),
	 * remembers a yes or a no, and starts what waited on a yes. A dismissed question is neither remembered nor
	 * answered: it comes again next time. Resolves with whether the project is trusted now.
	 */
	ask(ui: SessionUi): Promise<boolean> {
		if (this.current !== "undecided" || this.waiting.length === 0) return Promise.resolve(this.current === "trusted");
		this.question ??= this.askOnce(ui).finally(() => {
			this.question = undefined;
		});
		return this.question;
	}

	private async askOnce(ui: SessionUi): Promise<boolean> {
		const body: StyledLine[] = [
			{ text: `${showControls(this.cwd)} has code of its own that loom would run with your permissions:`, style: "plain" },
			...this.waiting.flatMap((entry) => entry.what).map((text) => ({ text: `  ${showControls(text)}`, style: "dim" as const })),
			{ text: "Trust it only if you know what this code does. The answer is remembered for this folder.", style: "plain" },
		];
		const answer = await ui.select({ title: "Trust this project folder?", body }, [
			{ label: "Yes, trust this folder and run its code", value: true },
			{ label: "No, do not run it", value: false },
		]);
		if (answer === undefined) return false;
		try {
			setProjectTrust(this.home, this.cwd, answer);
		} catch (error) {
			ui.notify("warning", `The answer holds for this session only: it could not be saved (${errorMessage(error)}).`);
		}
		this.current = answer ? "trusted" : "refused";
		const waiting = this.waiting;
		this.waiting = [];
		if (!answer) this.refused.push(...waiting.flatMap((entry) => entry.what));
		if (answer) for (const entry of waiting) await entry.start();
		return answer;
	}
}
