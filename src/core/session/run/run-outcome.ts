// What a prompt's run gives back: how it ended.
import type { AssistantMessage } from "../../ai/index.js";
import type { RunOutcome } from "../agent-session-types.js";

/** `last`: the run's last assistant message; a write failure or an abort request outranks how it ended. */
export function runOutcome(last: AssistantMessage | undefined, abortRequested: boolean, writeProblem: string | undefined): RunOutcome {
	if (writeProblem) return { status: "error", message: last, errorMessage: writeProblem };
	if (abortRequested || last?.stopReason === "aborted") {
		return { status: "aborted", message: last, errorMessage: last?.errorMessage ?? "Aborted" };
	}
	if (last?.stopReason === "error") return { status: "error", message: last, errorMessage: last.errorMessage };
	return { status: "done", message: last };
}
