// For a test file: one scripted model server, started before its tests and reset before each one.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type ScriptedModelServer, startScriptedModelServer } from "./scripted-model-server.mjs";

/**
 * The returned object stands for the server, which starts in beforeAll (after `prepare`, e.g. a build).
 */
export function useScriptedServer(prepare?: () => Promise<void>): ScriptedModelServer {
	let server: ScriptedModelServer | undefined;
	beforeAll(async () => {
		await prepare?.();
		server = await startScriptedModelServer();
	}, 120_000);
	afterAll(() => server?.close());
	beforeEach(() => server?.reset());
	return new Proxy({} as ScriptedModelServer, {
		get(_target, key) {
			if (!server) throw new Error("The scripted model server starts in beforeAll; use it inside tests.");
			const value = Reflect.get(server, key);
			return typeof value === "function" ? value.bind(server) : value;
		},
	});
}
