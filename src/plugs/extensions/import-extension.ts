// Loads an extension module without a build step: TypeScript or JavaScript, ES module or CommonJS syntax, through
// jiti (a kept, dependency-free loader that transpiles on the fly and resolves imports as Node does). jiti is
// imported on the first extension only, so a loom without extensions never loads it.
import type { Jiti } from "jiti";
import { readCheckedText, errorMessage } from "../../core/index.js";
import type { ExtensionFactory } from "./extension-api.js";
import { withLoadTimeout } from "./load-timeout.js";

/** An extension's own file larger than this is refused before it is read (its imports are its own business). */
const MAX_EXTENSION_BYTES = 16 * 1024 * 1024;

export interface ExtensionImporter {
	/**
	 * The module's default export, checked to be a function; throws a one-line message otherwise. Its top-level code
	 * gets `timeoutMs` to finish, counted from when it starts (after the loader is ready and the module transpiled).
	 */
	importFactory(path: string, timeoutMs: number): Promise<ExtensionFactory>;
}

/**
 * `modules`: what `import … from "<name>"` gives an extension for these names whatever its folder holds (loom's
 * own entry, TypeBox), so an extension in ~/.loom/extensions needs no node_modules of its own, and shares the
 * running loom's instances.
 */
export function extensionImporter(modules: () => Promise<Record<string, unknown>>): ExtensionImporter {
	let loader: Promise<Jiti> | undefined;
	const jiti = () =>
		(loader ??= Promise.all([import("jiti"), modules()]).then(([{ createJiti }, virtualModules]) =>
			createJiti(import.meta.url, {
				virtualModules,
				// Each session gets its extensions' modules afresh (an edited file is read again); nothing is cached on disk.
				moduleCache: false,
				fsCache: false,
				interopDefault: true,
			}),
		));
	return {
		async importFactory(path, timeoutMs) {
			// Read as any file read on the user's behalf: checked to be a regular file, and bounded.
			const source = readCheckedText(path, { maxBytes: MAX_EXTENSION_BYTES, label: "the extension" });
			const loader = await jiti();
			let loaded: unknown;
			try {
				const module = (await withLoadTimeout(Promise.resolve(loader.evalModule(source, { filename: path, id: path, async: true })), timeoutMs)) as { default?: unknown } | undefined;
				loaded = module?.default ?? module;
			} catch (error) {
				throw new Error(oneLine(error));
			}
			if (typeof loaded !== "function") {
				throw new Error("it has no default export function: write `export default function (loom: ExtensionAPI) { … }`.");
			}
			return loaded as ExtensionFactory;
		},
	};
}

/** jiti's messages span lines (the parser's name, then the position); a report is one line. */
function oneLine(error: unknown): string {
	return errorMessage(error).replace(/\s+/g, " ").trim() || "it failed to load.";
}
