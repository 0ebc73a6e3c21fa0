// What a sign-in flow needs from whoever runs it (the command line, the screen) and what it gives back.
import type { BuiltinProvider } from "../models-catalog.js";
import type { PlanLogin } from "./auth-file.js";

/** Where the user goes to approve: a page to open, and for a device flow the code to type there. */
export interface LoginInstructions {
	url: string;
	code?: string;
}

export interface LoginIo {
	/** Tells the user what to open (and type); called once per sign-in, before waiting. */
	show(instructions: LoginInstructions): void;
	/** Progress in words ("Waiting for approval…"). */
	progress?(text: string): void;
	signal?: AbortSignal;
	env?: NodeJS.ProcessEnv;
}

/** How a plan is signed in to: a browser on this machine (a 127.0.0.1 callback), or a code typed anywhere. */
export type LoginMethod = NonNullable<BuiltinProvider["login"]>["methods"][number];

/** One plan loom signs in to. */
export interface PlanLoginFlow {
	provider: string;
	login(method: LoginMethod, io: LoginIo): Promise<PlanLogin>;
	/** A new access token from `login.refresh`; throws LoginHttpError when the server refuses it. */
	refresh(login: PlanLogin, env: NodeJS.ProcessEnv): Promise<PlanLogin>;
}
